import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { listMessageChats } from '../../src/db/chat-window.js'
import { DREAMLANE_SENDER } from '../../src/db/message-row.js'
import { openMessagesDb } from '../../src/db/messages.js'
import { makeTempDir } from '../helpers/workspace.js'

/** A messages DB as PiClaw makes it: only its own (chat_jid, timestamp) index, none of dreamlane's. */
function piclawDb(rows: [id: string, chat: string, sender: string, timestamp: string][]): string {
  const file = join(makeTempDir(), 'piclaw.db')
  const raw = new Database(file)
  raw.exec(`
    CREATE TABLE chats (jid TEXT PRIMARY KEY, name TEXT, last_message_time TEXT);
    CREATE TABLE chat_branches (branch_id TEXT PRIMARY KEY, chat_jid TEXT NOT NULL UNIQUE, root_chat_jid TEXT NOT NULL);
    CREATE TABLE messages (id TEXT NOT NULL, chat_jid TEXT NOT NULL, sender TEXT, sender_name TEXT, content TEXT,
      timestamp TEXT NOT NULL, is_from_me INTEGER DEFAULT 0, is_bot_message INTEGER DEFAULT 0, PRIMARY KEY (id, chat_jid));
    CREATE INDEX idx_messages_chat_time ON messages (chat_jid, timestamp);`)
  const insert = raw.prepare(
    'INSERT INTO messages (id, chat_jid, sender, content, timestamp) VALUES (?, ?, ?, ?, ?)',
  )
  raw.transaction(() =>
    rows.forEach(([id, chat, sender, ts]) => insert.run(id, chat, sender, `${chat}/${id}`, ts)),
  )()
  raw.close()
  return file
}

const at = (minute: number): string => new Date(Date.UTC(2026, 10, 21, 0, minute)).toISOString()

describe('reading a window per chat', () => {
  it('gives the rows and order of one ORDER BY (timestamp, chat_jid, id), across pages and ties', () => {
    const rows: [string, string, string, string][] = []
    // One busy chat over several pages, with a run of equal timestamps across a page boundary.
    for (let i = 0; i < 1400; i++)
      rows.push([`b${String(i).padStart(4, '0')}`, 'busy', 'u', at(i < 700 ? 10 : 11 + i)])
    // Chats tied on timestamps with it and each other, ids that sort unlike insertion, a dream channel, our own posts.
    for (const chat of ['a', 'zz', 'Z', 'dream:run-1', 'a:branch']) {
      for (let i = 0; i < 30; i++)
        rows.push([`${30 - i}`, chat, i % 7 ? 'u' : DREAMLANE_SENDER, at(5 + (i % 12))])
    }
    rows.push(['early', 'a', 'u', at(0)], ['late', 'a', 'u', at(60 * 24)], ['epoch', 'a', 'u', '1732000000'])
    const db = openMessagesDb(piclawDb(rows), { readonly: true })
    const [start, end] = [new Date(at(1)), new Date(at(60 * 24))]
    const expected = db.db
      .prepare(
        `SELECT chat_jid, id FROM messages WHERE timestamp >= ? AND timestamp < ? AND substr(chat_jid, 1, 6) <> 'dream:'
          AND sender <> ? ORDER BY timestamp, chat_jid, id`,
      )
      .all(start.toISOString(), end.toISOString(), DREAMLANE_SENDER) as { chat_jid: string; id: string }[]
    const got = [...db.iterateWindow(start, end)].map((row) => ({ chat_jid: row.chatJid, id: row.id }))
    expect(expected.length).toBeGreaterThan(1400)
    expect(got).toEqual(expected)
    // A caller expecting many rows has each chat read its share at once: the same rows, in the same order.
    for (const expectRows of [1, 100, 2001, 50_000]) {
      const bulk = [...db.iterateWindow(start, end, { expectRows })]
      expect(bulk.map((row) => ({ chat_jid: row.chatJid, id: row.id }))).toEqual(expected)
    }
    expect(db.countNonIsoTimestamps()).toBe(1)
    db.close()
  })

  it('lists chats by seeking the index, and adds no index to a host DB', () => {
    const file = piclawDb([
      ['1', 'b', 'u', at(1)],
      ['2', 'a', 'u', at(2)],
      ['3', 'b', 'u', at(3)],
      ['4', 'dream:x', 'u', at(4)],
    ])
    const db = openMessagesDb(file, { readonly: true })
    expect(listMessageChats(db.db)).toEqual(['a', 'b', 'dream:x'])
    const indexes = db.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
      .pluck()
      .all()
    expect(indexes).toEqual(['idx_messages_chat_time'])
    const plan = db.db
      .prepare('EXPLAIN QUERY PLAN SELECT min(chat_jid) FROM messages WHERE chat_jid > ?')
      .all('a') as { detail: string }[]
    expect(plan.map((row) => row.detail).join(' ')).toMatch(
      /SEARCH messages USING COVERING INDEX idx_messages_chat_time/,
    )
    db.close()
  })
})
