// The recall signal the `signal` gate counts: interactive recall events appended since a moment.
import type { StateDb } from '../db/state.js'
import { recallStatement } from './store.js'

/** Interactive recall events recorded after `sinceMs` (epoch ms); compacted events are older than any gate asks. */
export function countRecallEventsSince(state: StateDb, sinceMs: number): number {
  return (
    recallStatement(state, 'SELECT count(*) AS n FROM recall_events WHERE at_ms > ?').get(sinceMs) as {
      n: number
    }
  ).n
}
