// Recall status in numbers (for `memory status` and `/dreaming status`) and in one line of text.
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { StateDb } from '../db/state.js'
import { resolveRecallPolicy } from './presets.js'
import { summarisePromotions } from './promotions.js'
import { scoreCandidates } from './score.js'
import { countStore, loadCandidateStats } from './stats.js'

export interface MemoryCounts {
  preset: string
  /** Recalled chunks not promoted yet. */
  shortTerm: number
  /** Of those, how many pass every gate now. */
  ready: number
  promoted: number
  /** ISO instant of the latest promotion, or null. */
  lastPromotionAt: string | null
  /** Live recall events. */
  events: number
  /** Chunks whose older events were compacted into totals. */
  compactedChunks: number
}

/** The counts at `clock.now()` under the configured preset. Reads state.db only (creating empty tables once). */
export function memoryCounts(
  state: StateDb,
  clock: Clock,
  config: Pick<ResolvedConfig, 'recall'>,
): MemoryCounts {
  const policy = resolveRecallPolicy(config.recall)
  const scored = scoreCandidates(loadCandidateStats(state), clock.now(), policy)
  const shortTerm = scored.filter((candidate) => !candidate.isPromoted)
  const store = countStore(state)
  return {
    preset: policy.preset,
    shortTerm: shortTerm.length,
    ready: shortTerm.filter((candidate) => candidate.gate === 'pass').length,
    ...summarisePromotions(state),
    events: store.events,
    compactedChunks: store.compactedChunks,
  }
}

/** e.g. `Recall: 12 short-term (2 ready, core), 5 promoted (last 2026-11-20 01:00 UTC), 1,234 events stored.` */
export function describeMemoryCounts(counts: MemoryCounts): string {
  const last = counts.lastPromotionAt
    ? ` (last ${counts.lastPromotionAt.slice(0, 16).replace('T', ' ')} UTC)`
    : ''
  const compacted =
    counts.compactedChunks > 0 ? ` + ${formatCount(counts.compactedChunks)} compacted chunks` : ''
  return (
    `Recall: ${formatCount(counts.shortTerm)} short-term (${formatCount(counts.ready)} ready, ${counts.preset}), ` +
    `${formatCount(counts.promoted)} promoted${last}, ${formatCount(counts.events)} events stored${compacted}.`
  )
}

/** `1,234`, as toLocaleString('en-US') writes it; a whole number is grouped here, sparing ICU's set-up at start. */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en-US')
  return String(value).replace(/\B(?=(\d{3})+$)/g, ',')
}
