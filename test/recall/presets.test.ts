// Presets, config overrides and weights normalisation, through the real config resolver.
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import { RECALL_SIGNALS } from '../../src/config/schema.js'
import { ConfigError } from '../../src/errors.js'
import { RECALL_PRESETS, normaliseWeights, resolveRecallPolicy } from '../../src/recall/presets.js'
import { makeTempDir } from '../helpers/workspace.js'

function configWith(recall: unknown) {
  return resolveConfig({ cwd: makeTempDir(), env: {}, flags: { recall } as never })
}

describe('normaliseWeights', () => {
  it('divides by the sum, so only ratios matter', () => {
    const weights = normaliseWeights({
      frequency: 2,
      relevance: 2,
      diversity: 0,
      recency: 4,
      consolidation: 0,
      richness: 0,
    })
    expect(weights).toEqual({
      frequency: 0.25,
      relevance: 0.25,
      diversity: 0,
      recency: 0.5,
      consolidation: 0,
      richness: 0,
    })
  })

  it('sums the defaults to 1', () => {
    const weights = resolveRecallPolicy(configWith({}).recall).weights
    expect(RECALL_SIGNALS.reduce((sum, name) => sum + weights[name], 0)).toBeCloseTo(1, 12)
    expect(weights.relevance).toBeGreaterThan(weights.richness)
  })

  it('refuses all-zero and negative weights as config errors naming the key', () => {
    const zero = { frequency: 0, relevance: 0, diversity: 0, recency: 0, consolidation: 0, richness: 0 }
    expect(() => normaliseWeights(zero)).toThrow(ConfigError)
    expect(() => normaliseWeights({ ...zero, relevance: -1, recency: 1 })).toThrow(
      /recall\.weights\.relevance/,
    )
  })
})

describe('resolveRecallPolicy', () => {
  it('takes the configured preset, core by default', () => {
    const policy = resolveRecallPolicy(configWith({}).recall)
    expect(policy).toMatchObject({ preset: 'core', minScore: 0.75, minRecallCount: 3, minUniqueQueries: 2 })
    expect(policy).toMatchObject({ maxAgeDays: 30, halfLifeDays: 14 })
  })

  it('lets config pick a preset and override single thresholds', () => {
    const policy = resolveRecallPolicy(configWith({ preset: 'rem', minRecallCount: 6 }).recall)
    expect(policy).toMatchObject({ ...RECALL_PRESETS.rem, minRecallCount: 6, preset: 'rem' })
  })

  it('merges partial weights over the defaults', () => {
    const config = configWith({ weights: { richness: 0 } })
    expect(config.recall.weights).toMatchObject({ richness: 0, relevance: 0.3 })
    expect(resolveRecallPolicy(config.recall).weights.richness).toBe(0)
  })

  it('gives another preset asked for by flag its own thresholds whole', () => {
    const policy = resolveRecallPolicy(configWith({ minScore: 0.1 }).recall, 'deep')
    expect(policy).toMatchObject({ preset: 'deep', ...RECALL_PRESETS.deep })
  })

  it('rejects unknown presets and out-of-range values in config.json', () => {
    expect(() => configWith({ preset: 'nightly' })).toThrow(ConfigError)
    expect(() => configWith({ minScore: 1.5 })).toThrow(/recall\.minScore/)
    expect(() => configWith({ weights: { vibes: 1 } })).toThrow(/recall\.weights\.vibes/)
  })
})
