import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openMessagesDb } from '../../src/db/messages.js'
import { makeTempDir, makeWorkspace } from '../helpers/workspace.js'
import { readDb, runImport } from './world.js'

const line = (chat: string, content: string, minute: number) =>
  JSON.stringify({
    chat,
    sender: 'u',
    role: 'user',
    content,
    timestamp: `2025-01-01T10:${String(minute).padStart(2, '0')}:00Z`,
  })

describe('writing staged chats', () => {
  it('writes each chat in one transaction: a chat that fails leaves no row behind, earlier chats stay', async () => {
    const ws = makeWorkspace()
    const target = openMessagesDb(ws.paths.messagesDb, { create: true })
    // Stands in for any write failure (disk full, constraint) in the middle of a chat.
    target.db.exec(`CREATE TRIGGER refuse_boom BEFORE INSERT ON messages WHEN NEW.content = 'boom'
      BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END`)
    target.close()
    const source = join(makeTempDir(), 'mixed.jsonl')
    // Chats interleave in the source; staging regroups them, so "b" fails as a whole.
    writeFileSync(
      source,
      [
        line('a', 'a1', 1),
        line('b', 'b1', 2),
        line('a', 'a2', 3),
        line('b', 'boom', 4),
        line('b', 'b3', 5),
        line('c', 'c1', 6),
      ].join('\n'),
    )

    await expect(runImport(ws, source)).rejects.toMatchObject({
      code: 'IMPORT_FAILED',
      message: expect.stringMatching(
        /chat b could not be written \(refused by test trigger\); none of its rows were kept\. 1 earlier chat/,
      ),
    })
    const { messages, chats } = readDb(ws.paths.messagesDb)
    expect(messages.map((m) => m.content)).toEqual(['a1', 'a2'])
    expect(chats.map((c) => c.jid)).toEqual(['a'])
  })

  it('removes its staging files whether the import succeeds or fails', async () => {
    const ws = makeWorkspace()
    const temp = makeTempDir()
    const source = join(makeTempDir(), 'ok.jsonl')
    writeFileSync(source, line('a', 'hello', 1))
    await runImport(ws, source, { tempDir: temp })
    expect(readdirSync(temp)).toEqual([])
    await expect(runImport(ws, join(temp, 'missing.jsonl'), { tempDir: temp })).rejects.toMatchObject({
      code: 'IMPORT_SOURCE_MISSING',
    })
    writeFileSync(source, '{"not": "an array"}')
    await expect(runImport(ws, source, { tempDir: temp, format: 'chatgpt' })).rejects.toMatchObject({
      code: 'IMPORT_UNREADABLE',
      message: expect.stringMatching(/ok\.jsonl is not a ChatGPT conversations\.json: expected a JSON array/),
    })
    expect(readdirSync(temp)).toEqual([])
  })

  it('checks an existing messages DB before reading the source, and leaves it alone when it is not one', async () => {
    const ws = makeWorkspace()
    const other = new Database(ws.paths.messagesDb)
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)')
    other.close()
    const source = join(makeTempDir(), 'ok.jsonl')
    writeFileSync(source, line('a', 'hello', 1))
    await expect(runImport(ws, source)).rejects.toMatchObject({
      code: 'MESSAGES_DB_SCHEMA',
      message: expect.stringMatching(/not a usable messages database/),
    })
    const check = new Database(ws.paths.messagesDb, { readonly: true })
    expect(check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual([
      'notes',
    ])
    check.close()
  })
})
