// Typed, coded errors: the stable `code` is shared by logs, `--json` output and HTTP bodies.

export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'MESSAGES_DB_MISSING'
  | 'MESSAGES_DB_SCHEMA'
  | 'NOTE_MALFORMED'
  | 'BACKUP_NOT_FOUND'
  | 'BACKUP_CORRUPT'
  | 'LOCK_HELD'
  | 'PATH_OUT_OF_SCOPE'
  | 'TOOL_INPUT_INVALID'
  | 'PROVIDER_FAILED'
  | 'RUN_NOT_FOUND'
  | 'WORKSPACE_MISSING'
  | 'INDEX_FAILED'
  | 'USAGE'
  | 'CONTENT_TOO_LARGE'
  | 'DAILY_NOTE_INVALID'
  | 'NOT_FOUND'
  | 'EDIT_NO_MATCH'
  | 'EDIT_AMBIGUOUS'
  | 'DAY_COMPLETE'
  | 'MEMORY_OUTSIDE_BLOCK'
  | 'UNKNOWN_TOOL'
  | 'TOOL_FAILED'
  | 'TOOL_CALL_LIMIT'
  | 'TOOL_ABORTED'
  | 'MESSAGES_OUT_OF_SCOPE'
  | 'IMPORT_SOURCE_MISSING'
  | 'IMPORT_UNREADABLE'
  | 'IMPORT_FAILED'
  | 'REQUEST_INVALID'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'RUN_CONFLICT'
  | 'RUN_NOT_REVIEWABLE'
  /** A forget request that names nothing to match (empty, only "my"), or a confirm with nothing pending. */
  | 'FORGET_INVALID'
  /** A forget that can no longer be undone: a dream ran since, its backups were purged, or it was undone. */
  | 'FORGET_NOT_UNDOABLE'
  /** Not a DreamlaneError: a bug. Logs, run records and HTTP bodies say so in the same words. */
  | 'INTERNAL'
  | 'NOTE_READ_ONLY'
  | 'WRITE_FAILED'
  | 'MESSAGES_DB_BUSY'
  | 'NOTE_NOT_UTF8'
  | 'MESSAGES_DB_INVALID'
  | 'STATE_DB_INVALID'
  /** The fleet's Redis did not answer (not running, wrong URL, refused). */
  | 'REDIS_UNAVAILABLE'

export class DreamlaneError extends Error {
  readonly code: ErrorCode
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** One config problem: the dotted key, what was wrong, and what is expected. */
export interface ConfigIssue {
  key: string
  message: string
}

export class ConfigError extends DreamlaneError {
  readonly issues: readonly ConfigIssue[]
  constructor(issues: readonly ConfigIssue[], source: string) {
    const lines = issues.map((issue) => `  - ${issue.key}: ${issue.message}`)
    super('CONFIG_INVALID', `invalid configuration (${source}):\n${lines.join('\n')}`)
    this.issues = issues
  }
}

export class MessagesDbMissingError extends DreamlaneError {
  constructor(file: string) {
    super(
      'MESSAGES_DB_MISSING',
      `messages database not found at ${file} — run \`dreamlane sample\` for demo data, ` +
        `or set messagesDb in config.json / DREAMLANE_MESSAGES_DB`,
    )
  }
}

/** The messages DB file is not a database dreamlane can read: empty, text, truncated, a folder. */
export class MessagesDbInvalidError extends DreamlaneError {
  constructor(file: string, why: string, options?: ErrorOptions) {
    super('MESSAGES_DB_INVALID', `cannot use ${file} as the messages database: ${why}`, options)
  }
}

/** Another process kept the messages DB locked for longer than dreamlane waits. */
export class MessagesDbBusyError extends DreamlaneError {
  constructor(file: string, holder: string | null, waitedMs?: number, options?: ErrorOptions) {
    const waited = waitedMs === undefined ? '' : ` (waited ${Math.round(waitedMs / 1000)} s)`
    super(
      'MESSAGES_DB_BUSY',
      `the messages database ${file} is locked by ${holder ?? 'another process'}${waited}; nothing was ` +
        'changed — try again once it is done',
      options,
    )
  }
}

export class NoteMalformedError extends DreamlaneError {
  readonly path: string
  constructor(path: string, reason: string, options?: ErrorOptions) {
    super('NOTE_MALFORMED', `${path}: ${reason}`, options)
    this.path = path
  }
}

export class BackupNotFoundError extends DreamlaneError {
  constructor(id: string) {
    super('BACKUP_NOT_FOUND', `no backup with id "${id}" (see \`dreamlane backups list\`)`)
  }
}

export class BackupCorruptError extends DreamlaneError {
  constructor(file: string, reason: string, options?: ErrorOptions) {
    super('BACKUP_CORRUPT', `backup ${file} is unusable: ${reason}; nothing was restored`, options)
  }
}

export class LockHeldError extends DreamlaneError {
  constructor(holder: string) {
    super('LOCK_HELD', `workspace is locked by ${holder}`)
  }
}

export class PathOutOfScopeError extends DreamlaneError {
  constructor(path: string, why: string) {
    super('PATH_OUT_OF_SCOPE', `refused "${path}": ${why}`)
  }
}

/** A note whose bytes are not UTF-8 (say latin-1): decoding and writing it back would destroy them. */
export class NoteNotUtf8Error extends DreamlaneError {
  readonly path: string
  constructor(path: string, options?: ErrorOptions) {
    super(
      'NOTE_NOT_UTF8',
      `${path} is not valid UTF-8, so dreamlane leaves it byte-for-byte alone — convert it ` +
        '(e.g. `iconv -f latin1 -t utf-8`) to let dreams read and update it',
      options,
    )
    this.path = path
  }
}

/** A note (or its folder) the user made read-only: dreamlane never writes through that. */
export class NoteReadOnlyError extends DreamlaneError {
  readonly path: string
  constructor(path: string, kind: 'file' | 'folder') {
    super(
      'NOTE_READ_ONLY',
      `${path}: the ${kind} is read-only, so dreamlane left it alone — make it writable (chmod u+w) to let dreams update it`,
    )
    this.path = path
  }
}

/** The disk refused a write (full, read-only filesystem, no permission): named, with what to do. */
export class WriteFailedError extends DreamlaneError {
  constructor(path: string, cause: NodeJS.ErrnoException) {
    super('WRITE_FAILED', `could not write ${path}: ${describeErrno(cause)}`, { cause })
  }
}

const ERRNO_WORDS: Record<string, string> = {
  ENOSPC: 'the disk is full (free some space, then run it again)',
  EDQUOT: 'the disk quota is used up (free some space, then run it again)',
  EROFS: 'the filesystem is mounted read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'an I/O error from the disk',
}

function describeErrno(error: NodeJS.ErrnoException): string {
  return (error.code && ERRNO_WORDS[error.code]) ?? error.message
}

/** True for the errno codes of a refused write, which WriteFailedError turns into a clear message. */
export function isWriteRefusal(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return typeof code === 'string' && code in ERRNO_WORDS
}

/** A tool call refused for a reason the model can act on; the code becomes the tool result's code. */
export class ToolRefusal extends DreamlaneError {}

export class UsageError extends DreamlaneError {
  constructor(message: string) {
    super('USAGE', message)
  }
}

/** Wraps anything thrown into a message string without losing the original. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
