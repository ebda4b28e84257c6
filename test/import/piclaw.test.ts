import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { makeTempDir, makeWorkspace } from '../helpers/workspace.js'
import { readDb, runImport } from './world.js'

// A PiClaw messages DB as it is in the wild: extra columns, foreign keys, an external-content FTS kept by triggers.
const PICLAW_SCHEMA = `
CREATE TABLE chats (jid TEXT PRIMARY KEY, name TEXT, last_message_time TEXT, channel TEXT);
CREATE TABLE chat_branches (branch_id TEXT PRIMARY KEY, chat_jid TEXT NOT NULL UNIQUE REFERENCES chats(jid),
  root_chat_jid TEXT NOT NULL REFERENCES chats(jid), parent_branch_id TEXT, agent_name TEXT,
  created_at TEXT, updated_at TEXT, archived_at TEXT);
CREATE TABLE messages (id TEXT NOT NULL, chat_jid TEXT NOT NULL REFERENCES chats(jid), sender TEXT, sender_name TEXT,
  content TEXT, timestamp TEXT NOT NULL, is_from_me INTEGER DEFAULT 0, is_bot_message INTEGER DEFAULT 0,
  content_blocks TEXT, link_previews TEXT, thread_id TEXT, is_terminal_agent_reply INTEGER DEFAULT 0,
  is_steering_message INTEGER DEFAULT 0, PRIMARY KEY (id, chat_jid));
CREATE INDEX idx_messages_chat_time ON messages (chat_jid, timestamp);
CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='rowid');
CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content) VALUES (new.rowid, new.content); END;
`

function makePiclawDb(file: string, fill: boolean): void {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.exec(PICLAW_SCHEMA)
  if (fill) {
    db.exec(`
      INSERT INTO chats VALUES ('web:default', 'Web', '2025-06-01T10:05:00Z', 'web'),
        ('web:default:b1', 'Web (branch)', NULL, 'web'), ('dream:manual:web:default:1', 'dream', NULL, 'web');
      INSERT INTO chat_branches VALUES ('b1', 'web:default:b1', 'web:default', NULL, 'pi', '2025-06-01T10:03:00Z', NULL, NULL);
      INSERT INTO messages (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message, content_blocks) VALUES
        ('m1', 'web:default', 'user', 'Alex', 'Remember that my gym closes at 9 now.', '2025-06-01T10:00:00Z', 0, 0, NULL),
        ('m2', 'web:default', 'pi', 'Pi', '', '2025-06-01T10:01:00.000Z', 0, 1, '[{"type":"text","text":"Noted: gym closes at 9."}]'),
        ('m3', 'web:default:b1', 'user', 'Alex', 'Actually make it 10 on Fridays.', '2025-06-01T10:03:00Z', 0, 0, NULL),
        ('m4', 'dream:manual:web:default:1', 'pi', 'Pi', 'dream chatter', '2025-06-01T11:00:00Z', 0, 1, NULL),
        ('m5', 'web:default', 'user', 'Alex', 'epoch-millis timestamp', '1748772000000', 0, 0, NULL);
    `)
  }
  db.close()
}

describe('PiClaw import', () => {
  it('copies chats, branches and messages (text from content_blocks too), leaving out dream channels', async () => {
    const dir = makeTempDir()
    const source = join(dir, 'piclaw-messages.db')
    makePiclawDb(source, true)
    const ws = makeWorkspace()
    const result = await runImport(ws, source)
    expect(result).toMatchObject({ format: 'piclaw', chats: 2, messages: 3, duplicates: 0, invalid: 1 })
    expect(result.problems).toEqual([
      { reason: 'timestamps outside 1970..9999 ISO 8601: not read', count: 1 },
    ])
    const { messages, chats, branches } = readDb(ws.paths.messagesDb)
    expect(messages.map((m) => [m.chat_jid, m.id, m.content, m.timestamp, m.is_bot_message])).toEqual([
      ['web:default', 'm1', 'Remember that my gym closes at 9 now.', '2025-06-01T10:00:00.000Z', 0],
      ['web:default', 'm2', 'Noted: gym closes at 9.', '2025-06-01T10:01:00.000Z', 1],
      ['web:default:b1', 'm3', 'Actually make it 10 on Fridays.', '2025-06-01T10:03:00.000Z', 0],
    ])
    expect(chats.map((c) => [c.jid, c.name])).toEqual([
      ['web:default', 'Web'],
      ['web:default:b1', 'Web (branch)'],
    ])
    expect(branches).toEqual([
      {
        branch_id: 'b1',
        chat_jid: 'web:default:b1',
        root_chat_jid: 'web:default',
        parent_branch_id: null,
        created_at: '2025-06-01T10:03:00Z',
      },
    ])
  })

  it('writes into a PiClaw-schema target keeping its foreign keys and FTS triggers working; re-import adds nothing', async () => {
    const dir = makeTempDir()
    const source = join(dir, 'source.db')
    makePiclawDb(source, true)
    const ws = makeWorkspace()
    makePiclawDb(ws.paths.messagesDb, false)
    await runImport(ws, source)
    expect(await runImport(ws, source)).toMatchObject({ messages: 0, duplicates: 3 })
    const db = new Database(ws.paths.messagesDb, { readonly: true })
    const hits = db
      .prepare(
        "SELECT m.id FROM messages_fts f JOIN messages m ON m.rowid = f.rowid WHERE messages_fts MATCH 'Fridays'",
      )
      .all()
    expect(hits).toEqual([{ id: 'm3' }])
    expect(db.pragma('foreign_key_check')).toEqual([])
    db.close()
  })

  it('checks the schema first and names what is missing', async () => {
    const dir = makeTempDir()
    const source = join(dir, 'other.sqlite')
    const db = new Database(source)
    db.exec('CREATE TABLE messages (id TEXT, body TEXT); CREATE TABLE chats (jid TEXT, name TEXT)')
    db.close()
    const ws = makeWorkspace()
    await expect(runImport(ws, source)).rejects.toMatchObject({
      code: 'MESSAGES_DB_SCHEMA',
      message: expect.stringMatching(
        /not a PiClaw messages DB: missing table chat_branches, messages\.chat_jid, messages\.sender, .*messages\.content, messages\.timestamp/,
      ),
    })
  })

  it('refuses to import the messages DB into itself', async () => {
    const ws = makeWorkspace()
    makePiclawDb(ws.paths.messagesDb, true)
    await expect(runImport(ws, ws.paths.messagesDb)).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/already is the messages DB/),
    })
  })
})
