// The messages DB (PiClaw-compatible): opening a host's DB as it is, or creating dreamlane's own.
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
import { DB_BUSY_TIMEOUT_MS, MessagesDb, PROBE_BUSY_MS } from './messages-db.js'
import { openDb, type Db } from './open.js'

export { MessagesDb }
export {
  DREAM_CHANNEL_PREFIX,
  DREAMLANE_SENDER,
  roleOf,
  type ChatActivity,
  type MessageRole,
  type MessageRow,
  type NewBranch,
  type NewMessage,
} from './message-row.js'

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
