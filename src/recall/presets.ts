// Promotion policy: a preset's gate thresholds, config overrides on top, and weights normalised to sum 1.
import { RECALL_SIGNALS, type RecallPresetName, type RecallSignal } from '../config/recall-names.js'
import type { ResolvedConfig } from '../config/schema.js'
import { ConfigError } from '../errors.js'

export type RecallWeights = Record<RecallSignal, number>

/** The thresholds a preset decides. */
export interface GateThresholds {
  minScore: number
  minRecallCount: number
  minUniqueQueries: number
}

/**
 * Like the anchors' dreaming modes: `core` is the everyday bar, `deep` asks for more distinct queries, `rem`
 * for more of everything; `light` promotes earlier, for small or new workspaces.
 */
export const RECALL_PRESETS: Readonly<Record<RecallPresetName, GateThresholds>> = {
  core: { minScore: 0.75, minRecallCount: 3, minUniqueQueries: 2 },
  deep: { minScore: 0.8, minRecallCount: 3, minUniqueQueries: 3 },
  rem: { minScore: 0.85, minRecallCount: 4, minUniqueQueries: 3 },
  light: { minScore: 0.6, minRecallCount: 2, minUniqueQueries: 2 },
}

/** Everything scoring and gating need, decided once. */
export interface RecallPolicy extends GateThresholds {
  preset: RecallPresetName
  maxAgeDays: number
  halfLifeDays: number
  /** Normalised: each ≥ 0, summing to 1. */
  weights: RecallWeights
}

/** Weights divided by their sum; all zero (or any negative or non-finite) is a config error. */
export function normaliseWeights(weights: Readonly<RecallWeights>): RecallWeights {
  const bad = RECALL_SIGNALS.filter((name) => !Number.isFinite(weights[name]) || weights[name] < 0)
  if (bad.length > 0) {
    const issues = bad.map((name) => ({ key: `recall.weights.${name}`, message: 'expected a number ≥ 0' }))
    throw new ConfigError(issues, 'recall weights')
  }
  const sum = RECALL_SIGNALS.reduce((total, name) => total + weights[name], 0)
  if (sum <= 0) {
    throw new ConfigError(
      [{ key: 'recall.weights', message: 'expected at least one weight above 0' }],
      'recall weights',
    )
  }
  return Object.fromEntries(RECALL_SIGNALS.map((name) => [name, weights[name] / sum])) as RecallWeights
}

/**
 * The policy from config: the configured preset with any explicit thresholds on top. A different `preset`
 * asked for here (a CLI flag) brings its own thresholds whole: overrides were written for the configured one.
 */
export function resolveRecallPolicy(
  settings: ResolvedConfig['recall'],
  preset = settings.preset,
): RecallPolicy {
  const base = RECALL_PRESETS[preset]
  const overrides: Partial<GateThresholds> = preset === settings.preset ? settings : {}
  return {
    preset,
    minScore: overrides.minScore ?? base.minScore,
    minRecallCount: overrides.minRecallCount ?? base.minRecallCount,
    minUniqueQueries: overrides.minUniqueQueries ?? base.minUniqueQueries,
    maxAgeDays: settings.maxAgeDays,
    halfLifeDays: settings.halfLifeDays,
    weights: normaliseWeights(settings.weights),
  }
}
