// Recall of forgotten text: its chunks leave the recall tables, so promotion can never bring it back.
import type { StateDb } from '../db/state.js'
import type { ForgetMatcher } from '../privacy/forget-match.js'
import { ensureRecallSchema } from './store.js'

/** Deletes every recalled chunk whose excerpt `matcher` matches, with its events and totals; returns how many. */
export function dropForgottenRecall(state: StateDb, matcher: ForgetMatcher): number {
  if (matcher.phrases.length === 0) return 0
  ensureRecallSchema(state)
  const rows = state.prepare('SELECT chunk_key, excerpt FROM recall_chunks').all() as {
    chunk_key: string
    excerpt: string
  }[]
  const keys = rows.filter((row) => matcher.matches(row.excerpt)).map((row) => row.chunk_key)
  if (keys.length === 0) return 0
  state.transaction(() => {
    for (const table of ['recall_events', 'recall_totals', 'recall_chunks'])
      for (const key of keys) state.prepare(`DELETE FROM ${table} WHERE chunk_key = ?`).run(key)
  })()
  return keys.length
}
