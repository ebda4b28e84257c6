// indexStats: how big the FTS index is and when it was last brought up to date.
import type { StateDb } from '../db/state.js'
import { ensureFtsSchema } from './schema.js'
import { readMeta, statement } from './store.js'
import type { IndexStats } from './types.js'

export function indexStats(state: StateDb): IndexStats {
  ensureFtsSchema(state)
  const sql = 'SELECT count(*) AS files, coalesce(sum(size), 0) AS bytes FROM fts_files'
  const files = statement(state, sql).get() as { files: number; bytes: number }
  const chunks = (statement(state, 'SELECT count(*) AS n FROM fts_chunks').get() as { n: number }).n
  const dirtyPending = (statement(state, 'SELECT count(*) AS n FROM fts_dirty').get() as { n: number }).n
  const lastRefreshAt = readMeta(state, 'last_refresh_at')
  return { ...files, chunks, dirtyPending, ...(lastRefreshAt !== undefined && { lastRefreshAt }) }
}
