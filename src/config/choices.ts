// The settings' closed choices as plain constants (no zod), so modules that only compare against them never load the schema.

/** When a dream's changes wait for a person: every time, only when the loss guard objects, or never. */
export const REVIEW_MODES = ['always', 'on-risk', 'never'] as const
export type ReviewMode = (typeof REVIEW_MODES)[number]

/** The promotion sweeps' mode: which recall preset deep sweeps promote with, or off. */
export const DREAMING_MODES = ['off', 'core', 'deep', 'rem'] as const
export type DreamingMode = (typeof DREAMING_MODES)[number]

/** Which engine dreams: `auto` picks anthropic when ANTHROPIC_API_KEY is set, else the offline engine. */
export const PROVIDER_CHOICES = ['auto', 'offline', 'anthropic', 'openai-compatible'] as const
export type ProviderChoice = (typeof PROVIDER_CHOICES)[number]
