// Opens SQLite files the one way dreamlane wants them: WAL, a busy timeout, foreign keys as the file says.
import Database from 'better-sqlite3'

export type Db = Database.Database

export interface OpenDbOptions {
  readonly?: boolean
  /** How long a statement waits on another process's lock before SQLITE_BUSY. @default 5000 */
  busyTimeoutMs?: number
}

export function openDb(file: string, options: OpenDbOptions = {}): Db {
  const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false })
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`)
  if (!options.readonly) {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
  }
  return db
}
