// state.db: dreamlane's own tables (runs, FTS index, recall events), each component migrating its part.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { openDb, type Db } from './open.js'

export type StateDb = Db

/** Opens (creating if needed) state.db. Components call `migrate()` for their tables when first used. */
export function openStateDb(file: string): StateDb {
  mkdirSync(dirname(file), { recursive: true })
  return openDb(file)
}
