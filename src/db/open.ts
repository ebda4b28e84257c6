// Opens SQLite files the one way dreamlane wants them: WAL for its own files, a busy timeout, foreign keys as the file says.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'

// better-sqlite3 is CommonJS: require() spares Node 20's ESM wrapper around it (about 4 ms of every start).
const require = createRequire(import.meta.url)
const Database = require('better-sqlite3') as typeof BetterSqlite3

export type Db = BetterSqlite3.Database

let addon: string | null | undefined

/** The addon npm compiled or downloaded; naming it spares `bindings` its search of a dozen paths. */
function compiledAddon(): string | null {
  if (addon !== undefined) return addon
  const file = join(
    dirname(require.resolve('better-sqlite3')),
    '..',
    'build',
    'Release',
    'better_sqlite3.node',
  )
  addon = existsSync(file) ? file : null
  return addon
}

export interface OpenDbOptions {
  readonly?: boolean
  /** How long a statement waits on another process's lock before SQLITE_BUSY. @default 5000 */
  busyTimeoutMs?: number
  /** 'wal' switches the file to WAL (dreamlane's own files); 'keep' leaves a host's journal mode alone. @default 'wal' */
  journal?: 'wal' | 'keep'
}

export function openDb(file: string, options: OpenDbOptions = {}): Db {
  const nativeBinding = compiledAddon()
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    ...(nativeBinding ? { nativeBinding } : {}),
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
