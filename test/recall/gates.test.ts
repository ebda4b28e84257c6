// The gate cascade: order (the first failing gate is named) and every threshold at its boundary.
import { describe, expect, it } from 'vitest'
import { RECALL_GATES, countByGate, gateCandidate, type GateInput } from '../../src/recall/gates.js'

const policy = { minScore: 0.75, minRecallCount: 3, minUniqueQueries: 2, maxAgeDays: 30 }
const passing: GateInput = {
  isPromoted: false,
  recalls: 3,
  relevance: 0.9,
  uniqueQueries: 2,
  ageDays: 30,
  score: 0.75,
}

describe('gateCandidate', () => {
  it('passes a candidate exactly at every threshold (all inclusive)', () => {
    expect(gateCandidate(passing, policy)).toBe('pass')
  })

  it.each([
    ['promoted', { isPromoted: true }],
    ['no-signal', { recalls: 0 }],
    ['no-signal', { relevance: 0 }],
    ['min-recalls', { recalls: 2 }],
    ['min-unique-queries', { uniqueQueries: 1 }],
    ['max-age', { ageDays: 30.0001 }],
    ['min-score', { score: 0.7499 }],
  ] as const)('stops at %s just past its boundary', (gate, change) => {
    expect(gateCandidate({ ...passing, ...change }, policy)).toBe(gate)
  })

  it('names the first failing gate in order: promoted → no signal → recalls → queries → age → score', () => {
    const failsAll: GateInput = {
      isPromoted: true,
      recalls: 0,
      relevance: 0,
      uniqueQueries: 0,
      ageDays: 99,
      score: 0,
    }
    const expected = [...RECALL_GATES]
    const fixes: Partial<GateInput>[] = [
      { isPromoted: false },
      { recalls: 1, relevance: 0.5 },
      { recalls: 3 },
      { uniqueQueries: 2 },
      { ageDays: 0 },
      { score: 1 },
    ]
    let input = failsAll
    for (const [index, gate] of expected.entries()) {
      expect(gateCandidate(input, policy)).toBe(gate)
      input = { ...input, ...fixes[index] }
    }
    expect(gateCandidate(input, policy)).toBe('pass')
  })

  it('counts outcomes per gate, listing gates that stopped none', () => {
    expect(countByGate(['pass', 'min-score', 'min-score', 'promoted'])).toEqual({
      pass: 1,
      promoted: 1,
      'no-signal': 0,
      'min-recalls': 0,
      'min-unique-queries': 0,
      'max-age': 0,
      'min-score': 2,
    })
  })
})
