// The staging area: parsed rows land in a throwaway SQLite file first, so no chat is ever half-written to the real DB.
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { NewMessage } from '../db/messages.js'
import { openDb, type Db } from '../db/open.js'
import type { ImportedChat, ImportProblem, ImportSink } from './types.js'

/** Problems kept for the report; the rest are only counted (a broken file can have millions). */
const MAX_KEPT_PROBLEMS = 200
const BATCH_ROWS = 500

const SCHEMA = `CREATE TABLE staged (
  chat_jid TEXT NOT NULL, id TEXT NOT NULL, sender TEXT, sender_name TEXT, content TEXT NOT NULL,
  timestamp TEXT NOT NULL, is_from_me INTEGER NOT NULL, is_bot_message INTEGER NOT NULL)`

interface StagedRow {
  chat_jid: string
  id: string
  sender: string | null
  sender_name: string | null
  content: string
  timestamp: string
  is_from_me: number
  is_bot_message: number
}

/**
 * Rows are appended in batches while the source streams (memory: one batch), then read back per chat.
 * The file lives in its own temp dir and is removed by `close()`.
 */
export class Stage implements ImportSink {
  readonly problems: ImportProblem[] = []
  readonly warnings: string[] = []
  problemCount = 0
  skipped = 0
  staged = 0
  first: string | null = null
  last: string | null = null
  readonly #dir: string
  readonly #db: Db
  readonly #chats = new Map<string, ImportedChat>()
  readonly #onBytes: (bytes: number) => void
  #batch: NewMessage[] = []
  #isSealed = false

  constructor(tempDir: string, onBytes: (bytes: number) => void = () => undefined) {
    this.#dir = mkdtempSync(join(tempDir, 'dreamlane-import-'))
    this.#onBytes = onBytes
    this.#db = openDb(join(this.#dir, 'stage.db'))
    // Throwaway data: no journal, no fsync; a crash just leaves a temp file behind.
    this.#db.pragma('journal_mode = OFF')
    this.#db.pragma('synchronous = OFF')
    // Rows are appended, then read once per chat: a small page cache loses nothing and keeps RSS flat.
    this.#db.pragma('cache_size = -2048')
    this.#db.exec(SCHEMA)
  }

  chat(chat: ImportedChat): void {
    const known = this.#chats.get(chat.jid)
    if (!known || (known.name === null && chat.name !== null)) this.#chats.set(chat.jid, { ...known, ...chat })
  }

  message(message: NewMessage): void {
    if (!this.#chats.has(message.chatJid)) this.#chats.set(message.chatJid, { jid: message.chatJid, name: null })
    this.#batch.push(message)
    this.staged++
    if (this.first === null || message.timestamp < this.first) this.first = message.timestamp
    if (this.last === null || message.timestamp > this.last) this.last = message.timestamp
    if (this.#batch.length >= BATCH_ROWS) this.#flush()
  }

  skip(): void {
    this.skipped++
  }

  problem(problem: ImportProblem): void {
    this.problemCount += problem.count ?? 1
    if (this.problems.length < MAX_KEPT_PROBLEMS) this.problems.push(problem)
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message)
  }

  advance(bytes: number): void {
    this.#onBytes(bytes)
  }

  /** Ends the read phase: flushes the last batch and indexes rows by chat. */
  seal(): void {
    if (this.#isSealed) return
    this.#flush()
    this.#db.exec('CREATE INDEX staged_chat ON staged (chat_jid)')
    this.#isSealed = true
  }

  /** Staged chats, session-tree roots before their branches (so foreign keys to the root hold). */
  chats(): ImportedChat[] {
    const all = [...this.#chats.values()]
    return [...all.filter((chat) => !chat.branch), ...all.filter((chat) => chat.branch)]
  }

  countMessages(chatJid: string): number {
    const row = this.#db.prepare('SELECT count(*) AS n FROM staged WHERE chat_jid = ?').get(chatJid) as { n: number }
    return row.n
  }

  /** The chat's staged messages in source order, streamed from disk. */
  *messagesOf(chatJid: string): Generator<NewMessage> {
    const rows = this.#db.prepare('SELECT * FROM staged WHERE chat_jid = ? ORDER BY rowid').iterate(chatJid)
    for (const raw of rows) {
      const row = raw as StagedRow
      yield {
        id: row.id,
        chatJid: row.chat_jid,
        sender: row.sender,
        senderName: row.sender_name,
        content: row.content,
        timestamp: row.timestamp,
        isFromMe: row.is_from_me === 1,
        isBotMessage: row.is_bot_message === 1,
      }
    }
  }

  /** Each staged id of the chat once (for dry-run counting). */
  *distinctIdsOf(chatJid: string): Generator<string> {
    const rows = this.#db.prepare('SELECT DISTINCT id FROM staged WHERE chat_jid = ?').pluck().iterate(chatJid)
    for (const id of rows) yield id as string
  }

  close(): void {
    if (this.#db.open) this.#db.close()
    rmSync(this.#dir, { recursive: true, force: true })
  }

  #flush(): void {
    if (this.#batch.length === 0) return
    const insert = this.#db.prepare('INSERT INTO staged VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    const rows = this.#batch
    this.#batch = []
    this.#db.transaction(() => {
      for (const m of rows) {
        insert.run(m.chatJid, m.id, m.sender ?? null, m.senderName ?? null, m.content, m.timestamp, m.isFromMe ? 1 : 0, m.isBotMessage ? 1 : 0)
      }
    })()
  }
}
