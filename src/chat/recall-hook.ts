// The seam between interactive searches and recall tracking: which chat asked, what search_workspace served.
import type { RecalledHit } from '../tools/types.js'

/** One interactive search as the recall store wants it. */
export interface RecallEvent {
  chatJid: string
  query: string
  hits: readonly RecalledHit[]
  at: Date
}

/** Told every search_workspace result served to an interactive (never a dream) turn. */
export type RecallSink = (event: RecallEvent) => void
