// Recall preset and signal names: plain constants (no zod), so the CLI can list them without loading the schema.

/** Gate-threshold presets for recall promotion, named after the anchors' dreaming modes. */
export const RECALL_PRESET_NAMES = ['core', 'deep', 'rem', 'light'] as const
export type RecallPresetName = (typeof RECALL_PRESET_NAMES)[number]

/** The scoring signals of a recall candidate, each in [0, 1]. */
export const RECALL_SIGNALS = [
  'frequency',
  'relevance',
  'diversity',
  'recency',
  'consolidation',
  'richness',
] as const
export type RecallSignal = (typeof RECALL_SIGNALS)[number]
