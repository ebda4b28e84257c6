import { existsSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openMessagesDb } from '../../src/db/messages.js'
import { MessagesDbMissingError } from '../../src/errors.js'
import { makeMessagesDb, makeTempDir, makeWorkspace } from '../helpers/workspace.js'

describe('messages DB', () => {
  it('refuses a missing DB with a message that says what to do', () => {
    const dir = makeTempDir()
    const file = join(dir, 'nope.db')
    expect(() => openMessagesDb(file)).toThrow(MessagesDbMissingError)
    expect(() => openMessagesDb(file)).toThrow(/dreamlane sample/)
    expect(existsSync(file)).toBe(false)
  })

  it('streams a window oldest first, resolving session trees and excluding dream channels', () => {
    const ws = makeWorkspace()
    const db = makeMessagesDb(
      ws.paths,
      [
        { chatJid: 'main', content: 'before', timestamp: '2026-11-20T23:59:59.000Z' },
        { chatJid: 'fork', content: 'in fork', timestamp: '2026-11-21T10:00:00.000Z' },
        { chatJid: 'main', content: 'in main', timestamp: '2026-11-21T09:00:00.000Z' },
        {
          chatJid: 'dream:manual:main:1',
          content: 'dream talk',
          timestamp: '2026-11-21T09:30:00.000Z',
          isBotMessage: true,
        },
        { chatJid: 'main', content: 'after', timestamp: '2026-11-22T00:00:00.000Z' },
      ],
      [{ branchId: 'b1', chatJid: 'fork', rootChatJid: 'main' }],
    )
    const rows = [...db.iterateWindow(new Date('2026-11-21T00:00:00Z'), new Date('2026-11-22T00:00:00Z'))]
    expect(rows.map((r) => [r.content, r.chatJid, r.rootJid])).toEqual([
      ['in main', 'main', 'main'],
      ['in fork', 'fork', 'main'],
    ])
    expect(db.countWindow(new Date('2026-11-21T00:00:00Z'), new Date('2026-11-22T00:00:00Z'))).toBe(2)
  })

  it('uses the timestamp index for window scans', () => {
    const ws = makeWorkspace()
    const db = makeMessagesDb(ws.paths, [])
    const plan = db.db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT * FROM messages WHERE timestamp >= ? AND timestamp < ? AND substr(chat_jid,1,6) <> 'dream:'",
      )
      .all('a', 'b') as { detail: string }[]
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/idx_messages_timestamp/)
  })

  it('reads a PiClaw-shaped DB as-is: extra columns, content_blocks-only text, FTS triggers intact', () => {
    const dir = makeTempDir()
    const file = join(dir, 'piclaw.db')
    const raw = new Database(file)
    raw.exec(`
      CREATE TABLE chats (jid TEXT PRIMARY KEY, name TEXT, last_message_time TEXT);
      CREATE TABLE chat_branches (branch_id TEXT PRIMARY KEY, chat_jid TEXT NOT NULL UNIQUE REFERENCES chats(jid),
        root_chat_jid TEXT NOT NULL, parent_branch_id TEXT, agent_name TEXT, created_at TEXT, updated_at TEXT, archived_at TEXT);
      CREATE TABLE messages (id TEXT NOT NULL, chat_jid TEXT NOT NULL REFERENCES chats(jid), sender TEXT, sender_name TEXT,
        content TEXT, timestamp TEXT NOT NULL, is_from_me INTEGER DEFAULT 0, is_bot_message INTEGER DEFAULT 0,
        content_blocks TEXT, link_previews TEXT, thread_id TEXT, is_terminal_agent_reply INTEGER, is_steering_message INTEGER,
        PRIMARY KEY (id, chat_jid));
      CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='rowid');
      CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts(rowid, content) VALUES (new.rowid, new.content); END;
      INSERT INTO chats VALUES ('web:main', 'Main', NULL);
      INSERT INTO messages (id, chat_jid, sender, content, timestamp, content_blocks)
        VALUES ('1', 'web:main', 'u', '', '2026-11-21T10:00:00.000Z', '[{"type":"text","text":"hello from blocks"}]');
    `)
    raw.close()
    const db = openMessagesDb(file)
    const rows = [...db.iterateWindow(new Date('2026-11-21T00:00:00Z'), new Date('2026-11-22T00:00:00Z'))]
    expect(rows[0]?.content).toBe('hello from blocks')
    db.insertMessages([
      {
        id: '2',
        chatJid: 'web:main',
        content: 'summary posted',
        timestamp: '2026-11-21T11:00:00.000Z',
        isBotMessage: true,
      },
    ])
    const fts = db.db
      .prepare("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'summary'")
      .get() as { n: number }
    expect(fts.n).toBe(1)
    const columns = (db.db.prepare('PRAGMA table_info(messages)').all() as { name: string }[]).map(
      (c) => c.name,
    )
    expect(columns).toContain('is_steering_message')
    db.close()
  })

  it('decodes content stored as a BLOB with invalid UTF-8', () => {
    const ws = makeWorkspace()
    const db = makeMessagesDb(ws.paths, [])
    db.db
      .prepare(
        "INSERT INTO messages (id, chat_jid, content, timestamp) VALUES ('x', 'main', ?, '2026-11-21T10:00:00.000Z')",
      )
      .run(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0xff, 0x21]))
    const [row] = [...db.iterateWindow(new Date('2026-11-21T00:00:00Z'), new Date('2026-11-22T00:00:00Z'))]
    expect(row?.content).toBe('caf\uFFFD \uFFFD!')
  })

  it('inserts idempotently and deletes a dream channel with its rows', () => {
    const ws = makeWorkspace()
    const db = makeMessagesDb(ws.paths, [])
    const message = {
      id: 'a',
      chatJid: 'dream:manual:main:1',
      content: 'x',
      timestamp: '2026-11-21T10:00:00.000Z',
    }
    db.upsertChat(message.chatJid, 'dream')
    expect(db.insertMessages([message])).toBe(1)
    expect(db.insertMessages([message])).toBe(0)
    expect(db.listDreamChannels()).toEqual(['dream:manual:main:1'])
    expect(db.deleteChat(message.chatJid)).toBe(1)
    expect(db.listDreamChannels()).toEqual([])
  })

  it('lists the same dream channels as a prefix test, by index seek instead of a scan', () => {
    const ws = makeWorkspace()
    const db = makeMessagesDb(ws.paths, [])
    const jids = [
      'dream',
      'dream:',
      'dream:a',
      'dream:manual:main:1',
      'dream;',
      'dream9',
      'dreamz',
      'Dream:a',
    ]
    const edges = [...jids, 'dream:\u{10FFFF}', 'dream:é', 'dre', 'web:main', '']
    edges.forEach((jid, i) => {
      if (i % 2 === 0) db.upsertChat(jid, 'x')
      else
        db.insertMessages([
          { id: `m${i}`, chatJid: jid, content: 'x', timestamp: '2026-11-21T10:00:00.000Z' },
        ])
    })
    db.insertMessages([
      { id: 'both', chatJid: 'dream:a', content: 'x', timestamp: '2026-11-21T11:00:00.000Z' },
    ])
    const byPrefix = db.db
      .prepare(
        `SELECT jid FROM chats WHERE substr(jid, 1, 6) = 'dream:'
        UNION SELECT DISTINCT chat_jid FROM messages WHERE substr(chat_jid, 1, 6) = 'dream:'`,
      )
      .all() as { jid: string }[]
    expect(byPrefix).toHaveLength(5)
    expect(db.listDreamChannels().sort()).toEqual(byPrefix.map((row) => row.jid).sort())
    const plan = db.db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT DISTINCT chat_jid FROM messages WHERE chat_jid >= 'dream:' AND chat_jid < 'dream;'",
      )
      .all() as { detail: string }[]
    expect(plan.map((p) => p.detail).join(' ')).toMatch(
      /SEARCH messages USING COVERING INDEX idx_messages_chat_time \(chat_jid>\? AND chat_jid<\?\)/,
    )
  })
})

describe('self-feeding', () => {
  it("leaves dreamlane's own summary posts out of the window", () => {
    const ws = makeWorkspace()
    const db = makeMessagesDb(ws.paths, [
      { chatJid: 'main', content: 'hello', timestamp: '2026-11-21T10:00:00.000Z' },
      {
        chatJid: 'main',
        content: 'Dream finished …',
        sender: 'dreamlane',
        isBotMessage: true,
        timestamp: '2026-11-21T11:00:00.000Z',
      },
    ])
    const window = [new Date('2026-11-21T00:00:00Z'), new Date('2026-11-22T00:00:00Z')] as const
    expect([...db.iterateWindow(...window)].map((m) => m.content)).toEqual(['hello'])
    expect(db.countWindow(...window)).toBe(1)
  })
})

describe('window summary', () => {
  it('counts per chat with first/last, newest activity first, hiding dream channels, their branches and our posts', async () => {
    const ws = makeWorkspace()
    const db = makeMessagesDb(
      ws.paths,
      [
        { chatJid: 'a', content: '1', timestamp: '2026-11-21T08:00:00.000Z' },
        { chatJid: 'a', content: '2', timestamp: '2026-11-21T09:00:00.000Z' },
        { chatJid: 'b', content: '3', timestamp: '2026-11-21T10:00:00.000Z' },
        { chatJid: 'a', content: 'summary', sender: 'dreamlane', timestamp: '2026-11-21T11:00:00.000Z' },
        { chatJid: 'dream:manual:a:1', content: 'x', timestamp: '2026-11-21T10:30:00.000Z' },
        { chatJid: 'dream-branch', content: 'y', timestamp: '2026-11-21T10:40:00.000Z' },
        { chatJid: 'b', content: 'outside', timestamp: '2026-11-22T10:00:00.000Z' },
      ],
      [{ branchId: 'x', chatJid: 'dream-branch', rootChatJid: 'dream:manual:a:1' }],
    )
    const [start, end] = [new Date('2026-11-21T00:00:00Z'), new Date('2026-11-22T00:00:00Z')]
    // The sliced read (for long windows) gives the same list.
    expect(await db.summarizeWindowInSlices(start, end)).toEqual(db.summarizeWindow(start, end))
    expect(db.summarizeWindow(start, end)).toEqual([
      {
        jid: 'b',
        name: 'b',
        root: 'b',
        messages: 1,
        first: '2026-11-21T10:00:00.000Z',
        last: '2026-11-21T10:00:00.000Z',
      },
      {
        jid: 'a',
        name: 'a',
        root: 'a',
        messages: 2,
        first: '2026-11-21T08:00:00.000Z',
        last: '2026-11-21T09:00:00.000Z',
      },
    ])
  })
})
