// Every signal formula at its boundaries, the weighted sum, and the candidate order with its tie-breaks.
import { describe, expect, it } from 'vitest'
import { RECALL_SIGNALS } from '../../src/config/schema.js'
import { RECALL_PRESETS, type RecallPolicy } from '../../src/recall/presets.js'
import {
  compareCandidates,
  consolidationSignal,
  daysBetween,
  diversitySignal,
  frequencySignal,
  recencySignal,
  relevanceSignal,
  richnessSignal,
  scoreCandidates,
  weightedScore,
  type CandidateStats,
  type ScoredCandidate,
  type Signals,
} from '../../src/recall/score.js'

const NOW = new Date('2026-11-23T12:00:00Z')
const DAY_MS = 86_400_000

const equalWeights = Object.fromEntries(
  RECALL_SIGNALS.map((name) => [name, 1 / 6]),
) as RecallPolicy['weights']

function policy(overrides: Partial<RecallPolicy> = {}): RecallPolicy {
  return {
    preset: 'core',
    ...RECALL_PRESETS.core,
    maxAgeDays: 30,
    halfLifeDays: 14,
    weights: equalWeights,
    ...overrides,
  }
}

function stats(overrides: Partial<CandidateStats> = {}): CandidateStats {
  return {
    chunkKey: 'notes/a.md:1-1:aaaaaaaaaaaa',
    path: 'notes/a.md',
    startLine: 1,
    endLine: 1,
    contentHash: 'aaaaaaaaaaaa',
    excerpt: 'a',
    recalls: 5,
    relevanceSum: 4,
    uniqueQueries: 3,
    recallDays: 3,
    firstDay: '2026-11-18',
    lastDay: '2026-11-22',
    lastRecalledMs: NOW.getTime() - DAY_MS,
    concepts: 4,
    isPromoted: false,
    ...overrides,
  }
}

describe('frequency = ln(1+n)/ln(11), capped at 1', () => {
  it.each([
    [0, 0],
    [1, Math.log(2) / Math.log(11)],
    [5, Math.log(6) / Math.log(11)],
    [10, 1],
    [11, 1],
    [1000, 1],
  ])('%i recalls → %f', (n, expected) => {
    expect(frequencySignal(n)).toBeCloseTo(expected, 12)
  })
})

describe('relevance = mean hit score', () => {
  it('is the sum over the count, 0 without recalls, clamped to [0, 1]', () => {
    expect(relevanceSignal(3, 4)).toBe(0.75)
    expect(relevanceSignal(4, 4)).toBe(1)
    expect(relevanceSignal(0, 0)).toBe(0)
    expect(relevanceSignal(5, 4)).toBe(1)
  })
})

describe('diversity = min(1, max(unique queries, recall days) / 5)', () => {
  it.each([
    [0, 0, 0],
    [1, 1, 0.2],
    [4, 2, 0.8],
    [2, 4, 0.8],
    [5, 1, 1],
    [1, 9, 1],
  ])('%i queries, %i days → %f', (queries, days, expected) => {
    expect(diversitySignal(queries, days)).toBeCloseTo(expected, 12)
  })
})

describe('recency = exp(-ln2 · age / half-life)', () => {
  it('is 1 at age 0, 1/2 at one half-life, 1/4 at two, and never above 1 for clock skew', () => {
    expect(recencySignal(0, 14)).toBe(1)
    expect(recencySignal(14, 14)).toBeCloseTo(0.5, 12)
    expect(recencySignal(28, 14)).toBeCloseTo(0.25, 12)
    expect(recencySignal(7, 7)).toBeCloseTo(0.5, 12)
    expect(recencySignal(-3, 14)).toBe(1)
  })
})

describe('consolidation across distinct days', () => {
  it('is 0 for one day however many recalls; grows with days and spread; 1 at 4 days over a week', () => {
    expect(consolidationSignal(0, 0)).toBe(0)
    expect(consolidationSignal(1, 0)).toBe(0)
    expect(consolidationSignal(2, 1)).toBeCloseTo(0.5 * (1 / 3) + 0.5 * (1 / 7), 12)
    expect(consolidationSignal(4, 3)).toBeCloseTo(0.5 + 0.5 * (3 / 7), 12)
    expect(consolidationSignal(4, 7)).toBe(1)
    expect(consolidationSignal(9, 60)).toBe(1)
  })
})

describe('richness = distinct concepts / 6, capped', () => {
  it.each([
    [0, 0],
    [3, 0.5],
    [6, 1],
    [8, 1],
  ])('%i concepts → %f', (concepts, expected) => {
    expect(richnessSignal(concepts)).toBeCloseTo(expected, 12)
  })
})

describe('daysBetween', () => {
  it('counts calendar days, across month and DST-free UTC math', () => {
    expect(daysBetween('2026-11-20', '2026-11-20')).toBe(0)
    expect(daysBetween('2026-10-30', '2026-11-02')).toBe(3)
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2)
  })
})

describe('weightedScore', () => {
  const signals: Signals = {
    frequency: 1,
    relevance: 0.5,
    diversity: 0,
    recency: 1,
    consolidation: 0,
    richness: 0.5,
  }

  it('is the weighted sum with normalised weights', () => {
    const weights = {
      frequency: 0.5,
      relevance: 0.5,
      diversity: 0,
      recency: 0,
      consolidation: 0,
      richness: 0,
    }
    expect(weightedScore(signals, weights)).toBe(0.75)
    expect(weightedScore(signals, equalWeights)).toBeCloseTo(3 / 6, 9)
  })

  it('lands exactly on a threshold it mathematically equals (no 0.7499999 from float sums)', () => {
    const thirds = {
      frequency: 0.1,
      relevance: 0.2,
      diversity: 0.3,
      recency: 0.4,
      consolidation: 0,
      richness: 0,
    }
    const all = {
      frequency: 0.75,
      relevance: 0.75,
      diversity: 0.75,
      recency: 0.75,
      consolidation: 0.75,
      richness: 0.75,
    }
    expect(weightedScore(all, thirds)).toBe(0.75)
  })
})

describe('scoreCandidates', () => {
  it('computes every signal from the stats at `now`, and the age in days since the last recall', () => {
    const [scored] = scoreCandidates([stats()], NOW, policy())
    expect(scored?.ageDays).toBeCloseTo(1, 12)
    expect(scored?.signals.frequency).toBeCloseTo(Math.log(6) / Math.log(11), 12)
    expect(scored?.signals.relevance).toBe(0.8)
    expect(scored?.signals.diversity).toBeCloseTo(0.6, 12)
    expect(scored?.signals.recency).toBeCloseTo(Math.exp(-Math.LN2 / 14), 12)
    expect(scored?.signals.consolidation).toBeCloseTo(0.5 * (2 / 3) + 0.5 * (4 / 7), 12)
    expect(scored?.signals.richness).toBeCloseTo(4 / 6, 12)
    const mean = Object.values(scored?.signals ?? {}).reduce((a, b) => a + b, 0) / 6
    expect(scored?.score).toBeCloseTo(mean, 8)
  })

  it('gates each candidate with the policy', () => {
    const [loose] = scoreCandidates([stats()], NOW, policy({ minScore: 0.1 }))
    const [strict] = scoreCandidates([stats()], NOW, policy({ minScore: 0.99 }))
    expect(loose?.gate).toBe('pass')
    expect(strict?.gate).toBe('min-score')
  })

  it('orders by score desc, then recall count desc, then path asc, then line', () => {
    const base = { relevanceSum: 0, recalls: 3 }
    const scored = scoreCandidates(
      [
        stats({ ...base, chunkKey: 'k1', path: 'notes/b.md' }),
        stats({ ...base, chunkKey: 'k2', path: 'notes/a.md', startLine: 9 }),
        stats({ ...base, chunkKey: 'k3', path: 'notes/a.md', startLine: 2 }),
        stats({ chunkKey: 'k4', path: 'notes/z.md', relevanceSum: 3, recalls: 3 }),
      ],
      NOW,
      // Only relevance counts, so the three with relevance 0 tie on score and differ only in the tie-breaks.
      policy({
        weights: { frequency: 0, relevance: 1, diversity: 0, recency: 0, consolidation: 0, richness: 0 },
      }),
    )
    expect(scored.map((candidate) => candidate.chunkKey)).toEqual(['k4', 'k3', 'k2', 'k1'])
  })

  it('breaks a score tie by recall count before path', () => {
    const a = { score: 0.5, recalls: 3, path: 'notes/a.md', startLine: 1, chunkKey: 'a' } as ScoredCandidate
    const b = { score: 0.5, recalls: 7, path: 'notes/b.md', startLine: 1, chunkKey: 'b' } as ScoredCandidate
    expect([a, b].sort(compareCandidates).map((c) => c.chunkKey)).toEqual(['b', 'a'])
    expect([{ ...b, recalls: 3 }, a].sort(compareCandidates).map((c) => c.chunkKey)).toEqual(['a', 'b'])
  })
})
