// The staging area: parsed rows land in a throwaway SQLite file first, so no chat is ever half-written to the real DB.
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { NewMessage } from '../db/messages.js'
import { openDb, type Db } from '../db/open.js'
import { DreamlaneError } from '../errors.js'
import type { ImportedChat, ImportProblem, ImportSink } from './types.js'

/** Problems kept for the report; the rest are only counted (a broken file can have millions). */
const MAX_KEPT_PROBLEMS = 200
// Small batches keep rows short-lived for the garbage collector (a 5000-row batch cost ~20 MB more RSS).
const BATCH_ROWS = 500
/**
 * rowid = chat number × 2^32 + arrival number: each chat's rows sit together in the table, so reading a
 * chat back is one sequential range even when the source interleaves thousands of chats. Stays below
 * 2^53 (exact in a JS number) for 2 million chats of 4 billion rows.
 */
const CHAT_STRIDE = 2 ** 32
const MAX_CHATS = 2 ** 21

const SCHEMA = `CREATE TABLE staged (
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, sender TEXT, sender_name TEXT, content TEXT NOT NULL,
  timestamp TEXT NOT NULL, is_from_me INTEGER NOT NULL, is_bot_message INTEGER NOT NULL)`

interface StagedRow {
  id: string
  sender: string | null
  sender_name: string | null
  content: string
  timestamp: string
  is_from_me: number
  is_bot_message: number
}

interface StagedChat extends ImportedChat {
  number: number
  rows: number
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
  readonly #chats = new Map<string, StagedChat>()
  readonly #onBytes: (bytes: number) => void
  #batch: { rowid: number; message: NewMessage }[] = []

  constructor(tempDir: string, onBytes: (bytes: number) => void = () => undefined) {
    this.#dir = mkdtempSync(join(tempDir, 'dreamlane-import-'))
    this.#onBytes = onBytes
    try {
      this.#db = openDb(join(this.#dir, 'stage.db'))
      // Throwaway data: no journal, no fsync; a crash just leaves a temp file behind.
      this.#db.pragma('journal_mode = OFF')
      this.#db.pragma('synchronous = OFF')
      // Rows are appended, then read once per chat in order: a small page cache loses nothing and keeps RSS flat.
      this.#db.pragma('cache_size = -2048')
      this.#db.exec(SCHEMA)
    } catch (error) {
      rmSync(this.#dir, { recursive: true, force: true })
      throw error
    }
  }

  chat(chat: ImportedChat): void {
    const known = this.#chats.get(chat.jid)
    if (!known) this.#chats.set(chat.jid, { ...chat, number: this.#chats.size, rows: 0 })
    else if (known.name === null && chat.name !== null) known.name = chat.name
  }

  message(message: NewMessage): void {
    let chat = this.#chats.get(message.chatJid)
    if (!chat) {
      this.chat({ jid: message.chatJid, name: null })
      chat = this.#chats.get(message.chatJid) as StagedChat
    }
    if (this.staged >= CHAT_STRIDE || chat.number >= MAX_CHATS) {
      throw new DreamlaneError(
        'IMPORT_FAILED',
        `source too large: over ${CHAT_STRIDE} messages or ${MAX_CHATS} chats`,
      )
    }
    this.#batch.push({ rowid: chat.number * CHAT_STRIDE + this.staged, message })
    chat.rows++
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

  /** Ends the read phase: the last batch goes to disk. */
  seal(): void {
    this.#flush()
  }

  /** Staged chats, session-tree roots before their branches (so foreign keys to the root hold). */
  chats(): ImportedChat[] {
    const all = [...this.#chats.values()].map(({ number: _number, rows: _rows, ...chat }) => chat)
    return [...all.filter((chat) => !chat.branch), ...all.filter((chat) => chat.branch)]
  }

  countMessages(chatJid: string): number {
    return this.#chats.get(chatJid)?.rows ?? 0
  }

  /** The chat's staged messages in source order, streamed from disk. */
  *messagesOf(chatJid: string): Generator<NewMessage> {
    const range = this.#rangeOf(chatJid)
    if (!range) return
    const rows = this.#db
      .prepare('SELECT * FROM staged WHERE rowid >= ? AND rowid < ? ORDER BY rowid')
      .iterate(...range)
    for (const raw of rows) {
      const row = raw as StagedRow
      yield {
        id: row.id,
        chatJid,
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
    const range = this.#rangeOf(chatJid)
    if (!range) return
    const rows = this.#db
      .prepare('SELECT DISTINCT id FROM staged WHERE rowid >= ? AND rowid < ?')
      .pluck()
      .iterate(...range)
    for (const id of rows) yield id as string
  }

  close(): void {
    if (this.#db.open) this.#db.close()
    rmSync(this.#dir, { recursive: true, force: true })
  }

  #rangeOf(chatJid: string): [number, number] | null {
    const chat = this.#chats.get(chatJid)
    return chat ? [chat.number * CHAT_STRIDE, (chat.number + 1) * CHAT_STRIDE] : null
  }

  #flush(): void {
    if (this.#batch.length === 0) return
    const insert = this.#db.prepare('INSERT INTO staged VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    const rows = this.#batch
    this.#batch = []
    this.#db.transaction(() => {
      for (const { rowid, message: m } of rows) {
        insert.run(
          rowid,
          m.id,
          m.sender ?? null,
          m.senderName ?? null,
          m.content,
          m.timestamp,
          m.isFromMe ? 1 : 0,
          m.isBotMessage ? 1 : 0,
        )
      }
    })()
  }
}
