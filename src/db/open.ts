// Opens SQLite files the one way dreamlane wants them: WAL for its own files, a busy timeout, foreign keys as the file says.
import Database from 'better-sqlite3'

export type Db = Database.Database

export interface OpenDbOptions {
  readonly?: boolean
  /** How long a statement waits on another process's lock before SQLITE_BUSY. @default 5000 */
  busyTimeoutMs?: number
  /** 'wal' switches the file to WAL (dreamlane's own files); 'keep' leaves a host's journal mode alone. @default 'wal' */
  journal?: 'wal' | 'keep'
}

export function openDb(file: string, options: OpenDbOptions = {}): Db {
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
  })
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`)
  if (!options.readonly && options.journal !== 'keep') {
    setWal(db)
    db.pragma('synchronous = NORMAL')
  }
  return db
}

/**
 * Switching a new file to WAL needs an exclusive moment; a process starting at the same instant as another may
 * see SQLITE_BUSY without the busy handler being consulted, so retry briefly.
 */
function setWal(db: Db): void {
  for (let attempt = 0; ; attempt++) {
    try {
      db.pragma('journal_mode = WAL')
      return
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 50) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20)
    }
  }
}
