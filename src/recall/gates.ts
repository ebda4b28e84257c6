// The promotion gate cascade: the first gate a candidate fails names why it stays in short-term recall.
import type { RecallPolicy } from './presets.js'

/** In the order they are checked; the cheapest and most decisive first. */
export const RECALL_GATES = [
  'promoted',
  'no-signal',
  'min-recalls',
  'min-unique-queries',
  'max-age',
  'min-score',
] as const
export type RecallGate = (typeof RECALL_GATES)[number]
/** `pass` or the gate that stopped the candidate. */
export type GateOutcome = 'pass' | RecallGate

/** What the gates look at. */
export interface GateInput {
  isPromoted: boolean
  recalls: number
  /** Mean relevance of its recalls, 0–1. */
  relevance: number
  uniqueQueries: number
  /** Days since the last recall. */
  ageDays: number
  score: number
}

/**
 * Every threshold is inclusive: exactly `minRecallCount` recalls passes, exactly `maxAgeDays` old passes.
 * `no-signal` stops what has no usable evidence (no recalls left, or every recall scored 0), so nothing is
 * promoted on a count alone.
 */
export function gateCandidate(
  input: GateInput,
  policy: Pick<RecallPolicy, 'minScore' | 'minRecallCount' | 'minUniqueQueries' | 'maxAgeDays'>,
): GateOutcome {
  if (input.isPromoted) return 'promoted'
  if (input.recalls <= 0 || !(input.relevance > 0)) return 'no-signal'
  if (input.recalls < policy.minRecallCount) return 'min-recalls'
  if (input.uniqueQueries < policy.minUniqueQueries) return 'min-unique-queries'
  if (input.ageDays > policy.maxAgeDays) return 'max-age'
  if (input.score < policy.minScore) return 'min-score'
  return 'pass'
}

/** How many candidates each gate stopped (and how many passed), every gate listed. */
export function countByGate(outcomes: readonly GateOutcome[]): Record<GateOutcome, number> {
  const counts = Object.fromEntries(['pass', ...RECALL_GATES].map((gate) => [gate, 0])) as Record<
    GateOutcome,
    number
  >
  for (const outcome of outcomes) counts[outcome]++
  return counts
}
