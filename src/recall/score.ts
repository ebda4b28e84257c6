// Candidate scoring: the six recall signals, their weighted sum, the gates, and a stable order. Pure.
import { RECALL_SIGNALS, type RecallSignal } from '../config/recall-names.js'
import { RICH_CONCEPTS } from './concepts.js'
import { gateCandidate, type GateOutcome } from './gates.js'
import type { RecallPolicy } from './presets.js'

const DAY_MS = 86_400_000
/** Ten recalls make frequency 1: ln(1 + 10) / ln(11). */
const FREQUENCY_SATURATION = 10
/** Five distinct queries or days make diversity 1. */
const DIVERSITY_SATURATION = 5
/** Recalls on four distinct days, spread over a week, make consolidation 1. */
const CONSOLIDATION_DAYS = 4
const CONSOLIDATION_SPAN_DAYS = 7

/** One chunk's recall evidence, as loaded from state.db (or built by the offline engine's Signal phase). */
export interface CandidateStats {
  chunkKey: string
  /** Workspace-relative, '/' separators. */
  path: string
  startLine: number
  endLine: number
  contentHash: string
  /** The block's text when first recalled. */
  excerpt: string
  recalls: number
  relevanceSum: number
  uniqueQueries: number
  /** Distinct local days with a recall. */
  recallDays: number
  firstDay: string
  lastDay: string
  lastRecalledMs: number
  /** Distinct concept tags. */
  concepts: number
  isPromoted: boolean
}

export type Signals = Record<RecallSignal, number>

export interface ScoredCandidate extends CandidateStats {
  signals: Signals
  /** Weighted sum of the signals, 0–1. */
  score: number
  ageDays: number
  gate: GateOutcome
}

const clamp01 = (value: number): number => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0)

export function frequencySignal(recalls: number): number {
  return recalls <= 0 ? 0 : clamp01(Math.log(1 + recalls) / Math.log(1 + FREQUENCY_SATURATION))
}

/** Mean relevance of the recalls. */
export function relevanceSignal(relevanceSum: number, recalls: number): number {
  return recalls <= 0 ? 0 : clamp01(relevanceSum / recalls)
}

export function diversitySignal(uniqueQueries: number, recallDays: number): number {
  return clamp01(Math.max(uniqueQueries, recallDays) / DIVERSITY_SATURATION)
}

/** exp(-ln2 · age / half-life): 1 when just recalled, 0.5 one half-life later (calendar time). */
export function recencySignal(ageDays: number, halfLifeDays: number): number {
  return clamp01(Math.exp((-Math.LN2 * Math.max(0, ageDays)) / halfLifeDays))
}

/**
 * Rewards recalls repeated across distinct days rather than one burst: half for how many days (up to four),
 * half for how far apart the first and last are (up to a week). A single day earns nothing.
 */
export function consolidationSignal(recallDays: number, spanDays: number): number {
  if (recallDays <= 1) return 0
  const spacing = Math.min(1, (recallDays - 1) / (CONSOLIDATION_DAYS - 1))
  const spread = Math.min(1, Math.max(0, spanDays) / CONSOLIDATION_SPAN_DAYS)
  return clamp01(0.5 * spacing + 0.5 * spread)
}

export function richnessSignal(concepts: number): number {
  return clamp01(concepts / RICH_CONCEPTS)
}

/** Calendar days from local day `from` to `to` (both `YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

export function signalsOf(stats: CandidateStats, ageDays: number, halfLifeDays: number): Signals {
  return {
    frequency: frequencySignal(stats.recalls),
    relevance: relevanceSignal(stats.relevanceSum, stats.recalls),
    diversity: diversitySignal(stats.uniqueQueries, stats.recallDays),
    recency: recencySignal(ageDays, halfLifeDays),
    consolidation: consolidationSignal(stats.recallDays, daysBetween(stats.firstDay, stats.lastDay)),
    richness: richnessSignal(stats.concepts),
  }
}

/** Σ weight × signal with normalised weights; rounded to 1e-9 so a threshold equal to the score passes. */
export function weightedScore(signals: Signals, weights: Readonly<Record<RecallSignal, number>>): number {
  const sum = RECALL_SIGNALS.reduce((total, name) => total + weights[name] * signals[name], 0)
  return Math.round(sum * 1e9) / 1e9
}

/** Score desc, recall count desc, path asc; then line and key so equal candidates keep one order. */
export function compareCandidates(a: ScoredCandidate, b: ScoredCandidate): number {
  return (
    b.score - a.score ||
    b.recalls - a.recalls ||
    compareText(a.path, b.path) ||
    a.startLine - b.startLine ||
    compareText(a.chunkKey, b.chunkKey)
  )
}

/**
 * Scores and gates every candidate at `now` under `policy`, best first. Pure: the CLI, chat status and the
 * offline engine's Signal phase share it.
 */
export function scoreCandidates(
  stats: readonly CandidateStats[],
  now: Date,
  policy: RecallPolicy,
): ScoredCandidate[] {
  return stats
    .map((candidate) => {
      const ageDays = Math.max(0, (now.getTime() - candidate.lastRecalledMs) / DAY_MS)
      const signals = signalsOf(candidate, ageDays, policy.halfLifeDays)
      const score = weightedScore(signals, policy.weights)
      const gate = gateCandidate({ ...candidate, relevance: signals.relevance, ageDays, score }, policy)
      return { ...candidate, signals, score, ageDays, gate }
    })
    .sort(compareCandidates)
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
