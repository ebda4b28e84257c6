import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { DREAMLANE_SENDER } from '../../src/db/message-row.js'
import { openMessagesDb } from '../../src/db/messages.js'
import { compareSqlValues, planWindowScan } from '../../src/db/window-scan.js'
import { mulberry32 } from '../../src/sample/prng.js'
import { makeTempDir } from '../helpers/workspace.js'

type Row = [id: string, chat: string, sender: string, timestamp: string | number]

/** A messages DB as PiClaw makes it (only its (chat_jid, timestamp) index), rows inserted in the order given. */
function hostDb(rows: Row[], options: { withoutRowid?: boolean } = {}): string {
  const file = join(makeTempDir(), 'host.db')
  const raw = new Database(file)
  raw.exec(`
    CREATE TABLE chats (jid TEXT PRIMARY KEY, name TEXT, last_message_time TEXT);
    CREATE TABLE chat_branches (branch_id TEXT PRIMARY KEY, chat_jid TEXT NOT NULL UNIQUE, root_chat_jid TEXT NOT NULL);
    CREATE TABLE messages (id TEXT NOT NULL, chat_jid TEXT NOT NULL, sender TEXT, sender_name TEXT, content TEXT,
      timestamp TEXT NOT NULL, is_from_me INTEGER DEFAULT 0, is_bot_message INTEGER DEFAULT 0, content_blocks TEXT,
      PRIMARY KEY (id, chat_jid))${options.withoutRowid ? ' WITHOUT ROWID' : ''};
    CREATE INDEX idx_messages_chat_time ON messages (chat_jid, timestamp);
    INSERT INTO chats VALUES ('c', 'Chat C', NULL);
    INSERT INTO chat_branches VALUES ('b1', 'c:branch', 'c');`)
  const insert = raw.prepare(
    'INSERT INTO messages (id, chat_jid, sender, content, timestamp, content_blocks) VALUES (?, ?, ?, ?, ?, ?)',
  )
  raw.transaction(() =>
    rows.forEach(([id, chat, sender, timestamp], i) =>
      // Every seventh message has its text only in content_blocks, as PiClaw stores some.
      i % 7 === 3
        ? insert.run(
            id,
            chat,
            sender,
            '',
            timestamp,
            JSON.stringify([{ type: 'text', text: `${chat}/${id}` }]),
          )
        : insert.run(id, chat, sender, `${chat}/${id}`, timestamp, null),
    ),
  )()
  raw.close()
  return file
}

const DAY_MS = 86_400_000
const T0 = Date.UTC(2026, 8, 1)
const at = (ms: number): string => new Date(T0 + ms).toISOString()

/** Four days of chat in several chats, with ties in time across chats and within one, ids that sort unlike
 * insertion, dream channels, dreamlane's own posts, epoch numbers, and rows before and after the window. */
function worldRows(): Row[] {
  const rows: Row[] = []
  const next = mulberry32(11)
  const chats = ['c', 'c:branch', 'a@g', 'Z', 'dream:manual:c:1', 'zz']
  for (let i = 0; i < 4000; i++) {
    const chat = chats[Math.floor(next() * chats.length)] as string
    // Whole minutes over four days, so equal timestamps happen across chats and within one.
    const ms = Math.floor(next() * 4 * 24 * 60) * 60_000
    const sender = next() < 0.05 ? DREAMLANE_SENDER : 'u'
    rows.push([String(Math.floor(next() * 100_000)) + (next() < 0.5 ? '' : 'x'), chat, sender, at(ms)])
  }
  rows.push(
    ['e1', 'c', 'u', 1_788_000_000],
    ['before', 'c', 'u', at(-DAY_MS)],
    ['after', 'a@g', 'u', at(5 * DAY_MS)],
  )
  // Ties within one chat whose ids sort unlike their insertion order.
  for (const id of ['b', '10', 'a', '9', '\u{1F600}', '\uE000']) rows.push([id, 'Z', 'u', at(DAY_MS + 1000)])
  return dedupe(rows)
}

function dedupe(rows: Row[]): Row[] {
  const seen = new Set<string>()
  return rows.filter(([id, chat]) => !seen.has(`${id}\u0000${chat}`) && seen.add(`${id}\u0000${chat}`))
}

const window = [new Date(T0), new Date(T0 + 4 * DAY_MS)] as const

function idsOf(rows: Iterable<{ chatJid: string; id: string; content: string }>): string[] {
  return [...rows].map((row) => `${row.chatJid}/${row.id} ${row.content}`)
}

describe('reading a long window by walking the table', () => {
  it('gives the rows and order of the per-chat read, whatever order the rows were stored in', () => {
    const rows = worldRows()
    const shuffled = [...rows]
    const next = mulberry32(5)
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1))
      ;[shuffled[i], shuffled[j]] = [shuffled[j] as Row, shuffled[i] as Row]
    }
    // In time order (as hosts append) and shuffled: the shuffled table's rows mostly arrive out of order.
    const byTime = [...rows].sort((a, b) => (String(a[3]) < String(b[3]) ? -1 : 1))
    for (const stored of [byTime, shuffled]) {
      const db = openMessagesDb(hostDb(stored), { readonly: true })
      const perChat = idsOf(db.iterateWindow(...window))
      const expected = db.db
        .prepare(
          `SELECT chat_jid || '/' || id AS key FROM messages WHERE timestamp >= ? AND timestamp < ?
            AND substr(chat_jid, 1, 6) <> 'dream:' AND sender <> ? ORDER BY timestamp, chat_jid, id`,
        )
        .pluck()
        .all(window[0].toISOString(), window[1].toISOString(), DREAMLANE_SENDER)
      expect(perChat.map((line) => line.split(' ')[0])).toEqual(expected)
      expect(perChat.length).toBeGreaterThan(2500)
      expect(idsOf(db.iterateLongWindow(...window))).toEqual(perChat)
      db.close()
    }
  })

  it('walks the table only where the window rows lie together, and reads chat by chat otherwise', () => {
    const inWindow: Row[] = Array.from({ length: 200 }, (_, i) => [`w${i}`, 'c', 'u', at(i * 60_000)])
    // Every window row between nine of history: the span is mostly other rows.
    const sparse = inWindow.flatMap((row, i): Row[] => [
      row,
      ...Array.from({ length: 9 }, (_, k): Row => [`h${i}-${k}`, 'c', 'u', at(-30 * DAY_MS + i * 1000 + k)]),
    ])
    const dense = [...sparse.filter(([id]) => id.startsWith('h')), ...inWindow]
    const jids = ['c']
    const select = 'SELECT m.id, m.timestamp, m.chat_jid FROM messages m'
    const [start, end] = window.map((date) => date.toISOString()) as [string, string]
    for (const [stored, isWalked] of [
      [sparse, false],
      [dense, true],
    ] as const) {
      const db = openMessagesDb(hostDb(stored), { readonly: true })
      const scan = planWindowScan(db.db, select, jids, start, end)
      expect(scan !== null).toBe(isWalked)
      if (scan) expect(scan).toMatchObject({ rows: 200, spanRowids: 200 })
      expect(idsOf(db.iterateLongWindow(...window))).toEqual(idsOf(db.iterateWindow(...window)))
      db.close()
    }
  })

  it('reads chat by chat from a table without a rowid', () => {
    const rows = worldRows()
    const db = openMessagesDb(hostDb(rows, { withoutRowid: true }), {
      readonly: true,
    })
    const [start, end] = window.map((date) => date.toISOString()) as [string, string]
    expect(
      planWindowScan(db.db, 'SELECT m.id, m.timestamp, m.chat_jid FROM messages m', ['c'], start, end),
    ).toBe(null)
    expect(idsOf(db.iterateLongWindow(...window))).toEqual(idsOf(db.iterateWindow(...window)))
    db.close()
  })

  it('still gives every row, in order, when rows are deleted between counting and walking', () => {
    const rows: Row[] = Array.from({ length: 3000 }, (_, i) => [
      `m${i}`,
      i % 2 ? 'c' : 'a@g',
      'u',
      at(i * 100_000),
    ])
    const file = hostDb(rows)
    const db = openMessagesDb(file, { readonly: true })
    const [start, end] = window.map((date) => date.toISOString()) as [string, string]
    const select = 'SELECT m.id, m.timestamp, m.chat_jid FROM messages m'
    const scan = planWindowScan(db.db, select, ['a@g', 'c'], start, end)
    expect(scan?.rows).toBe(3000)
    const writer = new Database(file)
    writer.prepare("DELETE FROM messages WHERE id IN ('m5', 'm1200')").run()
    writer.close()
    const walked = [...(scan?.read() ?? [])].map(({ row }) => row[0])
    const expected = rows.filter(([id]) => !['m5', 'm1200'].includes(id)).map(([id]) => id)
    expect(walked).toEqual(expected)
    db.close()
  })

  it('orders values of any kind as SQLite does', () => {
    const values: unknown[] = [
      null,
      3,
      -1.5,
      10,
      '10',
      '9',
      '',
      'a',
      'B',
      '\u{1F600}',
      '\uE000',
      '\uFFFF',
      'é',
      Buffer.from([1, 2]),
      Buffer.from([0]),
      2.5,
    ]
    const raw = new Database(':memory:')
    raw.exec('CREATE TABLE t (i INTEGER, v)')
    const insert = raw.prepare('INSERT INTO t VALUES (?, ?)')
    values.forEach((value, i) => insert.run(i, value))
    const bySqlite = raw.prepare('SELECT i FROM t ORDER BY v').pluck().all()
    raw.close()
    const byUs = values
      .map((value, i) => ({ value, i }))
      .sort((a, b) => compareSqlValues(a.value, b.value))
      .map(({ i }) => i)
    expect(byUs).toEqual(bySqlite)
  })
})
