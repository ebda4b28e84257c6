// The only place errors become exit codes (and the one place a stack trace is printed for a bug).
import { DreamlaneError, WriteFailedError, isWriteRefusal, type ErrorCode } from '../errors.js'

export const EXIT = {
  ok: 0,
  bug: 1,
  usage: 2,
  config: 3,
  notFound: 4,
  locked: 5,
  corrupt: 6,
  dreamFailed: 7,
  cannotWrite: 8,
  unhealthy: 9,
} as const

const BY_CODE: Partial<Record<ErrorCode, number>> = {
  USAGE: EXIT.usage,
  CONFIG_INVALID: EXIT.config,
  MESSAGES_DB_MISSING: EXIT.notFound,
  MESSAGES_DB_SCHEMA: EXIT.config,
  WORKSPACE_MISSING: EXIT.notFound,
  BACKUP_NOT_FOUND: EXIT.notFound,
  RUN_NOT_FOUND: EXIT.notFound,
  NOT_FOUND: EXIT.notFound,
  LOCK_HELD: EXIT.locked,
  BACKUP_CORRUPT: EXIT.corrupt,
  NOTE_MALFORMED: EXIT.corrupt,
  PROVIDER_FAILED: EXIT.dreamFailed,
  IMPORT_SOURCE_MISSING: EXIT.notFound,
  IMPORT_UNREADABLE: EXIT.corrupt,
  IMPORT_FAILED: EXIT.corrupt,
  RUN_CONFLICT: EXIT.locked,
  RUN_NOT_REVIEWABLE: EXIT.usage,
  FORGET_INVALID: EXIT.usage,
  FORGET_NOT_UNDOABLE: EXIT.usage,
  NOTE_READ_ONLY: EXIT.cannotWrite,
  WRITE_FAILED: EXIT.cannotWrite,
  MESSAGES_DB_BUSY: EXIT.notFound,
  NOTE_NOT_UTF8: EXIT.corrupt,
  MESSAGES_DB_INVALID: EXIT.config,
  STATE_DB_INVALID: EXIT.corrupt,
  REDIS_UNAVAILABLE: EXIT.unhealthy,
}

/** Prints the error the way a user can act on (JSON when asked) and returns the exit code. */
export function reportError(error: unknown, json: boolean): number {
  const refused = asWriteFailure(error)
  if (refused) return reportError(refused, json)
  if (error instanceof DreamlaneError) {
    if (json) console.log(JSON.stringify({ ok: false, error: { code: error.code, message: error.message } }))
    else console.error(`dreamlane: ${error.message}`)
    return BY_CODE[error.code] ?? EXIT.bug
  }
  console.error('dreamlane: unexpected error (this is a bug; please report it with the trace below)')
  console.error(error instanceof Error ? error.stack : error)
  return EXIT.bug
}

/** SQLite's error families that mean the disk, not dreamlane, refused a write. */
const SQLITE_WRITE_CODES: Record<string, string> = {
  SQLITE_FULL: 'the disk is full (free some space, then run it again)',
  SQLITE_READONLY: 'the database file or its folder is read-only',
  SQLITE_IOERR: 'an I/O error from the disk',
}

/**
 * A full disk or a read-only filesystem can surface anywhere (a state.db migration, a log line): it is the
 * machine, not a bug, so it gets the cannot-write code and a plain message instead of a stack.
 */
function asWriteFailure(error: unknown): DreamlaneError | null {
  if (error instanceof DreamlaneError) return null
  if (isWriteRefusal(error)) return new WriteFailedError(error.path ?? 'a file', error)
  const code = (error as { code?: unknown } | null)?.code
  // SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, … belong to their family.
  const words =
    typeof code === 'string' ? SQLITE_WRITE_CODES[code.split('_').slice(0, 2).join('_')] : undefined
  if (!words) return null
  return new DreamlaneError('WRITE_FAILED', `could not write dreamlane's state: ${words}`, { cause: error })
}
