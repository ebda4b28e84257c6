// state.db: dreamlane's own tables (runs, FTS index, recall events), each component migrating its part.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DreamlaneError, errorMessage } from '../errors.js'
import { openDb, type Db } from './open.js'

export type StateDb = Db

/**
 * Opens (creating if needed) state.db. Components call `migrate()` for their tables when first used.
 * A file that is not a usable database is refused with STATE_DB_INVALID and what to do about it.
 */
export function openStateDb(file: string): StateDb {
  try {
    mkdirSync(dirname(file), { recursive: true })
    return openDb(file)
  } catch (error) {
    const code = (error as { code?: string }).code ?? ''
    if (
      !code.startsWith('SQLITE_NOTADB') &&
      !code.startsWith('SQLITE_CORRUPT') &&
      !code.startsWith('SQLITE_CANTOPEN') &&
      code !== 'EISDIR' &&
      code !== 'ENOTDIR'
    )
      throw error
    throw new DreamlaneError(
      'STATE_DB_INVALID',
      `dreamlane's state database ${file} is unusable (${errorMessage(error)}) — move it aside and run again; ` +
        'a fresh one is created (run history and the search index start over, notes are untouched)',
      { cause: error },
    )
  }
}
