// The messages DB (PiClaw-compatible): window streaming, session trees, and the few writes dreamlane makes.
import { mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  DreamlaneError,
  MessagesDbBusyError,
  MessagesDbInvalidError,
  MessagesDbMissingError,
  errorMessage,
} from '../errors.js'
import { DEFAULT_DB_WAIT_MS, describeDbHolder, isBusy, retryWhileBusy, type DbWait } from './busy.js'
import { openDb, type Db } from './open.js'

/** A message as dreamlane reads it, with its session tree resolved. */
export interface MessageRow {
  id: string
  chatJid: string
  /** Root chat of the session tree (the chat itself when it is not a branch). */
  rootJid: string
  chatName: string | null
  sender: string | null
  senderName: string | null
  content: string
  /** ISO 8601 UTC. */
  timestamp: string
  isFromMe: boolean
  isBotMessage: boolean
}

export type MessageRole = 'user' | 'assistant'

export function roleOf(message: Pick<MessageRow, 'isBotMessage'>): MessageRole {
  return message.isBotMessage ? 'assistant' : 'user'
}

/** A message to insert; timestamps are ISO 8601 UTC. */
export interface NewMessage {
  id: string
  chatJid: string
  sender?: string | null
  senderName?: string | null
  content: string
  timestamp: string
  isFromMe?: boolean
  isBotMessage?: boolean
}

export interface NewBranch {
  branchId: string
  chatJid: string
  rootChatJid: string
  parentBranchId?: string | null
  createdAt?: string
}

/** One chat's activity in a window. */
export interface ChatActivity {
  jid: string
  name: string
  root: string
  messages: number
  first: string
  last: string
}

export const DREAM_CHANNEL_PREFIX = 'dream:'

/** Sender of the summaries dreamlane posts. They are about the notes, so dreams never read them back (no self-feeding). */
export const DREAMLANE_SENDER = 'dreamlane'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS chats (jid TEXT PRIMARY KEY, name TEXT, last_message_time TEXT);
CREATE TABLE IF NOT EXISTS chat_branches (
  branch_id TEXT PRIMARY KEY, chat_jid TEXT NOT NULL UNIQUE, root_chat_jid TEXT NOT NULL,
  parent_branch_id TEXT, created_at TEXT);
CREATE TABLE IF NOT EXISTS messages (
  id TEXT NOT NULL, chat_jid TEXT NOT NULL, sender TEXT, sender_name TEXT, content TEXT,
  timestamp TEXT NOT NULL, is_from_me INTEGER DEFAULT 0, is_bot_message INTEGER DEFAULT 0,
  PRIMARY KEY (id, chat_jid));
CREATE INDEX IF NOT EXISTS idx_messages_chat_time ON messages (chat_jid, timestamp);
`
// Added to existing DBs too: window scans must not walk all history (O(window), not O(history)).
const TIME_INDEX = 'CREATE INDEX IF NOT EXISTS idx_messages_timestamp ON messages (timestamp)'

export interface OpenMessagesOptions extends DbWait {
  /** Create the file and schema when missing. @default false */
  create?: boolean
  readonly?: boolean
}

interface RawMessage {
  id: string
  chat_jid: string
  root_jid: string
  chat_name: string | null
  sender: string | null
  sender_name: string | null
  content: unknown
  content_blocks?: unknown
  timestamp: string
  is_from_me: number | null
  is_bot_message: number | null
}

const utf8 = new TextDecoder('utf-8', { fatal: false })

/** Message text whatever its storage: TEXT, a BLOB with invalid UTF-8, or only PiClaw's content_blocks. */
function textOf(content: unknown, blocks: unknown): string {
  let text = ''
  if (typeof content === 'string') text = content
  else if (content instanceof Uint8Array) text = utf8.decode(content)
  else if (content != null) text = String(content)
  if (text.trim() !== '' || blocks == null) return text
  try {
    const parsed: unknown = JSON.parse(
      typeof blocks === 'string' ? blocks : utf8.decode(blocks as Uint8Array),
    )
    const list = Array.isArray(parsed) ? parsed : [parsed]
    return list
      .map((block) =>
        block && typeof block === 'object' && typeof (block as { text?: unknown }).text === 'string'
          ? (block as { text: string }).text
          : '',
      )
      .filter(Boolean)
      .join('\n')
  } catch {
    return text
  }
}

function toRow(raw: RawMessage): MessageRow {
  return {
    id: raw.id,
    chatJid: raw.chat_jid,
    rootJid: raw.root_jid,
    chatName: raw.chat_name,
    sender: raw.sender,
    senderName: raw.sender_name,
    content: textOf(raw.content, raw.content_blocks),
    timestamp: raw.timestamp,
    isFromMe: Boolean(raw.is_from_me),
    isBotMessage: Boolean(raw.is_bot_message),
  }
}

/** Each probe of a locked DB waits this long on SQLite's busy handler before the next progress check. */
const PROBE_BUSY_MS = 250

/** How long a statement on an open messages DB waits on a host's lock before failing. */
const DB_BUSY_TIMEOUT_MS = 5000

export class MessagesDb {
  readonly db: Db
  readonly file: string
  readonly #selectColumns: string

  constructor(db: Db, file: string) {
    this.db = db
    this.file = file
    const columns = new Set(
      (db.prepare('PRAGMA table_info(messages)').all() as { name: string }[]).map((column) => column.name),
    )
    for (const required of ['id', 'chat_jid', 'content', 'timestamp']) {
      if (!columns.has(required)) {
        throw new DreamlaneError('MESSAGES_DB_SCHEMA', `${file}: messages table has no "${required}" column`)
      }
    }
    this.#selectColumns = `m.id, m.chat_jid, COALESCE(b.root_chat_jid, m.chat_jid) AS root_jid, c.name AS chat_name,
      m.sender, m.sender_name, m.content, m.timestamp, m.is_from_me, m.is_bot_message
      ${columns.has('content_blocks') ? ', m.content_blocks' : ''}`
  }

  /**
   * Streams the messages with `start <= timestamp < end` (ISO UTC), oldest first, excluding dream channels and
   * dreamlane's own summary posts.
   * Rows are read one at a time; do not run other statements on this connection while iterating.
   */
  *iterateWindow(start: Date, end: Date): Generator<MessageRow> {
    const statement = this.db.prepare(`SELECT ${this.#selectColumns}
      FROM messages m
      LEFT JOIN chat_branches b ON b.chat_jid = m.chat_jid
      LEFT JOIN chats c ON c.jid = m.chat_jid
      WHERE m.timestamp >= ? AND m.timestamp < ? AND substr(m.chat_jid, 1, 6) <> 'dream:'
        AND COALESCE(m.sender, '') <> '${DREAMLANE_SENDER}'
      ORDER BY m.timestamp, m.chat_jid, m.id`)
    for (const raw of statement.iterate(start.toISOString(), end.toISOString()))
      yield toRow(raw as RawMessage)
  }

  /**
   * Per-chat counts and first/last timestamps in a window, newest activity first — one GROUP BY on the
   * timestamp index instead of streaming every row. Same exclusions as iterateWindow, plus branches of dream chats.
   */
  summarizeWindow(start: Date, end: Date): ChatActivity[] {
    return this.db
      .prepare(
        `SELECT m.chat_jid AS jid, COALESCE(c.name, m.chat_jid) AS name,
          COALESCE(b.root_chat_jid, m.chat_jid) AS root, count(*) AS messages,
          min(m.timestamp) AS first, max(m.timestamp) AS last
        FROM messages m
        LEFT JOIN chat_branches b ON b.chat_jid = m.chat_jid
        LEFT JOIN chats c ON c.jid = m.chat_jid
        WHERE m.timestamp >= ? AND m.timestamp < ? AND substr(m.chat_jid, 1, 6) <> 'dream:'
          AND substr(COALESCE(b.root_chat_jid, m.chat_jid), 1, 6) <> 'dream:'
          AND COALESCE(m.sender, '') <> '${DREAMLANE_SENDER}'
        GROUP BY m.chat_jid
        ORDER BY last DESC, jid`,
      )
      .all(start.toISOString(), end.toISOString()) as ChatActivity[]
  }

  /** Messages of one chat in a time range, oldest first, at most `limit`. */
  listChatMessages(
    chatJid: string,
    options: { start?: Date; end?: Date; limit?: number } = {},
  ): MessageRow[] {
    const rows = this.db
      .prepare(
        `SELECT ${this.#selectColumns}
        FROM messages m
        LEFT JOIN chat_branches b ON b.chat_jid = m.chat_jid
        LEFT JOIN chats c ON c.jid = m.chat_jid
        WHERE m.chat_jid = ? AND m.timestamp >= ? AND m.timestamp < ?
        ORDER BY m.timestamp, m.id LIMIT ?`,
      )
      .all(
        chatJid,
        options.start?.toISOString() ?? '',
        options.end?.toISOString() ?? '\uffff',
        options.limit ?? 1000,
      ) as RawMessage[]
    return rows.map(toRow)
  }

  /**
   * Messages whose timestamp is not ISO 8601 text: numbers (epoch seconds or ms, stored as INTEGER, REAL or
   * digits) sort before '1970-01-01', so the timestamp index finds them without walking history.
   */
  countNonIsoTimestamps(): number {
    const row = this.db
      .prepare(`SELECT count(*) AS n FROM messages WHERE timestamp < '1970-01-01'`)
      .get() as { n: number }
    return row.n
  }

  /** Count of messages in a window, excluding dream channels. */
  countWindow(start: Date, end: Date): number {
    const row = this.db
      .prepare(
        `SELECT count(*) AS n FROM messages
        WHERE timestamp >= ? AND timestamp < ? AND substr(chat_jid, 1, 6) <> 'dream:'
          AND COALESCE(sender, '') <> '${DREAMLANE_SENDER}'`,
      )
      .get(start.toISOString(), end.toISOString()) as { n: number }
    return row.n
  }

  /**
   * Distinct session trees with messages after `since` (ISO UTC), excluding dream channels and the summaries
   * dreamlane itself posted — so a dream's own reply never looks like a new session.
   */
  countSessionTreesSince(since: Date): number {
    const row = this.db
      .prepare(
        `SELECT count(DISTINCT COALESCE(b.root_chat_jid, m.chat_jid)) AS n
        FROM messages m LEFT JOIN chat_branches b ON b.chat_jid = m.chat_jid
        WHERE m.timestamp > ? AND substr(m.chat_jid, 1, 6) <> 'dream:' AND COALESCE(m.sender, '') <> '${DREAMLANE_SENDER}'`,
      )
      .get(since.toISOString()) as { n: number }
    return row.n
  }

  /** Root chat of `chatJid`'s session tree. */
  rootOf(chatJid: string): string {
    const row = this.db
      .prepare('SELECT root_chat_jid AS root FROM chat_branches WHERE chat_jid = ?')
      .get(chatJid) as { root: string } | undefined
    return row?.root ?? chatJid
  }

  listChats(): { jid: string; name: string | null; lastMessageTime: string | null }[] {
    return this.db
      .prepare(
        `SELECT jid, name, last_message_time AS lastMessageTime FROM chats
        WHERE substr(jid, 1, 6) <> 'dream:' ORDER BY last_message_time DESC`,
      )
      .all() as { jid: string; name: string | null; lastMessageTime: string | null }[]
  }

  upsertChat(jid: string, name: string | null, lastMessageTime?: string): void {
    this.db
      .prepare(
        `INSERT INTO chats (jid, name, last_message_time) VALUES (?, ?, ?)
        ON CONFLICT(jid) DO UPDATE SET name = COALESCE(excluded.name, chats.name),
          last_message_time = MAX(COALESCE(chats.last_message_time, ''), COALESCE(excluded.last_message_time, ''))`,
      )
      .run(jid, name, lastMessageTime ?? null)
  }

  upsertBranch(branch: NewBranch): void {
    this.db
      .prepare(
        `INSERT INTO chat_branches (branch_id, chat_jid, root_chat_jid, parent_branch_id, created_at)
        VALUES (?, ?, ?, ?, ?) ON CONFLICT(branch_id) DO NOTHING`,
      )
      .run(
        branch.branchId,
        branch.chatJid,
        branch.rootChatJid,
        branch.parentBranchId ?? null,
        branch.createdAt ?? null,
      )
  }

  /** Inserts messages (idempotent on (id, chat_jid)) in one transaction; returns how many were new. */
  insertMessages(messages: Iterable<NewMessage>): number {
    const insert = this.db.prepare(`INSERT OR IGNORE INTO messages
      (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
    const touch = this.db.prepare(`UPDATE chats SET last_message_time = ? WHERE jid = ?
      AND (last_message_time IS NULL OR last_message_time < ?)`)
    return this.db.transaction((rows: Iterable<NewMessage>) => {
      let added = 0
      for (const m of rows) {
        const result = insert.run(
          m.id,
          m.chatJid,
          m.sender ?? null,
          m.senderName ?? null,
          m.content,
          m.timestamp,
          m.isFromMe ? 1 : 0,
          m.isBotMessage ? 1 : 0,
        )
        added += result.changes
        touch.run(m.timestamp, m.chatJid, m.timestamp)
      }
      return added
    })(messages)
  }

  /** Removes a chat with its messages and branch rows (used for temporary dream channels only). */
  deleteChat(jid: string): number {
    return this.db.transaction(() => {
      const removed = this.db.prepare('DELETE FROM messages WHERE chat_jid = ?').run(jid).changes
      this.db.prepare('DELETE FROM chat_branches WHERE chat_jid = ?').run(jid)
      this.db.prepare('DELETE FROM chats WHERE jid = ?').run(jid)
      return removed
    })()
  }

  /** Jids of leftover dream channels (from crashed runs). */
  listDreamChannels(): string[] {
    const rows = this.db
      .prepare(
        `SELECT jid FROM chats WHERE substr(jid, 1, 6) = 'dream:'
        UNION SELECT DISTINCT chat_jid FROM messages WHERE substr(chat_jid, 1, 6) = 'dream:'`,
      )
      .all() as { jid: string }[]
    return rows.map((row) => row.jid)
  }

  /**
   * Waits (bounded) until this connection could write — the dream channel and the summary — and throws
   * MESSAGES_DB_BUSY naming the holder when another process keeps a write lock the whole time.
   */
  waitUntilWritable(wait: DbWait = {}): void {
    this.db.pragma(`busy_timeout = ${PROBE_BUSY_MS}`)
    try {
      const probe = retryWhileBusy(
        () => {
          this.db.exec('BEGIN IMMEDIATE')
          this.db.exec('ROLLBACK')
        },
        wait,
        this.file,
      )
      if (!probe)
        throw new MessagesDbBusyError(
          this.file,
          describeDbHolder(this.file),
          wait.waitMs ?? DEFAULT_DB_WAIT_MS,
        )
    } finally {
      this.db.pragma(`busy_timeout = ${DB_BUSY_TIMEOUT_MS}`)
    }
  }

  close(): void {
    this.db.close()
  }
}

/** `PRAGMA application_id` of messages DBs dreamlane created ("drml"): only those get its index and WAL. */
const DREAMLANE_APPLICATION_ID = 0x64726d6c

/**
 * Opens the messages DB. A DB dreamlane did not create is used as-is: its journal mode and schema stay what
 * the host made them. With `create`, a missing file gets the schema (in WAL mode). A file that is not a
 * usable database (empty, text, truncated, a folder) is refused with MESSAGES_DB_INVALID, and a DB another
 * process keeps locked is waited on for `waitMs`, then refused with MESSAGES_DB_BUSY naming the holder.
 */
export function openMessagesDb(file: string, options: OpenMessagesOptions = {}): MessagesDb {
  const kind = fileKind(file)
  if (kind === 'missing' && !options.create) throw new MessagesDbMissingError(file)
  if (kind === 'folder') throw new MessagesDbInvalidError(file, 'it is a folder, not a database file')
  if (kind === 'empty')
    throw new MessagesDbInvalidError(
      file,
      'it is an empty file (0 bytes), not a database — point --messages-db at the real one, or delete it ' +
        'and run `dreamlane init` for a new empty DB',
    )
  const creating = kind === 'missing'
  if (creating) mkdirSync(dirname(file), { recursive: true })
  let db: Db
  try {
    db = openDb(file, {
      readonly: options.readonly,
      journal: creating ? 'wal' : 'keep',
      busyTimeoutMs: PROBE_BUSY_MS,
    })
  } catch (error) {
    throw invalidOrBusy(file, error)
  }
  try {
    const probe = retryWhileBusy(() => readSchema(db), options, file)
    if (!probe)
      throw new MessagesDbBusyError(file, describeDbHolder(file), options.waitMs ?? DEFAULT_DB_WAIT_MS)
    if (creating) {
      db.exec(SCHEMA)
      db.pragma(`application_id = ${DREAMLANE_APPLICATION_ID}`)
    } else if (!probe.value.hasMessages) {
      throw new DreamlaneError(
        'MESSAGES_DB_SCHEMA',
        `${file}: not a usable messages database (it has no messages table)`,
      )
    }
    // Window scans must not walk all history (O(window), not O(history)); a host's DB keeps its own schema.
    const ours = creating || probe.value.applicationId === DREAMLANE_APPLICATION_ID
    if (!options.readonly && ours) addTimeIndex(db)
    db.pragma(`busy_timeout = ${DB_BUSY_TIMEOUT_MS}`)
    return new MessagesDb(db, file)
  } catch (error) {
    db.close()
    throw invalidOrBusy(file, error)
  }
}

/** Adds the window-scan index when missing; a DB busy right now gets it next time. */
function addTimeIndex(db: Db): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'idx_messages_timestamp'").get()
  if (exists) return
  try {
    db.exec(TIME_INDEX)
  } catch (error) {
    if (!isBusy(error)) throw error
  }
}

function readSchema(db: Db): { hasMessages: boolean; applicationId: number } {
  const row = db
    .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'messages'")
    .get() as { n: number }
  return {
    hasMessages: row.n > 0,
    applicationId: db.pragma('application_id', { simple: true }) as number,
  }
}

function fileKind(file: string): 'missing' | 'folder' | 'empty' | 'file' {
  try {
    const info = statSync(file)
    if (info.isDirectory()) return 'folder'
    return info.size === 0 ? 'empty' : 'file'
  } catch {
    return 'missing'
  }
}

/** SQLite's own words for a file that is not a database become a DreamlaneError the user can act on. */
function invalidOrBusy(file: string, error: unknown): Error {
  if (error instanceof DreamlaneError) return error
  if (isBusy(error)) return new MessagesDbBusyError(file, describeDbHolder(file), undefined, { cause: error })
  const code = (error as { code?: string } | null)?.code ?? ''
  const why =
    code === 'SQLITE_NOTADB'
      ? 'it is not an SQLite database'
      : code.startsWith('SQLITE_CORRUPT')
        ? 'the database is corrupt or truncated'
        : code.startsWith('SQLITE_CANTOPEN')
          ? 'it cannot be opened'
          : `not a usable messages database (${errorMessage(error)})`
  return new MessagesDbInvalidError(file, why, { cause: error })
}
