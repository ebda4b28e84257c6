// Anthropic models announced for retirement, so a configured one can be warned about before it stops working.

/**
 * Model id → end-of-life date, as @anthropic-ai/sdk 1.12 announces them (its internal DEPRECATED_MODELS, which
 * the package does not export). Update alongside the SDK.
 */
const END_OF_LIFE: Readonly<Record<string, string>> = {
  'claude-mythos-preview': 'June 30th, 2026',
  'claude-sonnet-4-5': 'November 30th, 2026',
  'claude-sonnet-4-5-20250929': 'November 30th, 2026',
}

/** "claude-sonnet-4-5 is deprecated and reaches end of life on …", or null for a current model. */
export function describeDeprecation(model: string | null | undefined): string | null {
  const date = model ? END_OF_LIFE[model] : undefined
  return date
    ? `model ${model} is deprecated and reaches end of life on ${date}; set dream.model (or DREAMLANE_DREAM_MODEL) to a current one such as claude-sonnet-4-6`
    : null
}
