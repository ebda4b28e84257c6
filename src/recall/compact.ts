// Compaction: events past the horizon fold into per-chunk totals, so the live table stays bounded.
import type { StateDb } from '../db/state.js'
import { groupEvents, loadTotalsOf, mergeTotals, saveTotals } from './totals.js'
import { recallStatement } from './store.js'

export interface CompactResult {
  /** Events folded and deleted. */
  events: number
  /** Chunks whose totals were created or grown. */
  chunks: number
}

/**
 * Folds every event before `before` into its chunk's totals and deletes those events, in one transaction, so
 * the signals read afterwards are the same as before (up to the MAX_TRACKED caps). Cost follows the events
 * folded, not the store.
 */
export function compactRecall(state: StateDb, options: { before: Date }): CompactResult {
  const beforeMs = options.before.getTime()
  return state.transaction(() => {
    const groups = groupEvents(state, beforeMs)
    let events = 0
    for (const [chunkKey, group] of groups) {
      saveTotals(state, chunkKey, mergeTotals(loadTotalsOf(state, chunkKey), group))
      events += group.recalls
    }
    recallStatement(state, 'DELETE FROM recall_events WHERE at_ms < ?').run(beforeMs)
    return { events, chunks: groups.size }
  })()
}
