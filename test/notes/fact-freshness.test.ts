// The fact-freshness arithmetic against numbers worked out by hand (RockBot's defaults: grace 30 days,
// half-life 45 days, floor 0.10; base 0.5, +0.1 per reinforcement).
import { describe, expect, it } from 'vitest'
import {
  anchorDay,
  daysBetween,
  factImportance,
  freshnessOf,
  isBelowFloor,
  lineImportance,
  reinforce,
  withSeen,
  type FactFreshness,
} from '../../src/notes/fact-freshness.js'
import { DEFAULTS } from '../../src/config/defaults.js'

const PARAMS = DEFAULTS.memory.freshness
const once = (day: string): FactFreshness => ({ firstSeen: day, lastSeen: day, daysSeen: 1 })

describe('fact importance', () => {
  it('uses the RockBot defaults', () => {
    expect(PARAMS).toEqual({ graceDays: 30, halfLifeDays: 45, floor: 0.1, reinforcementBoost: 0.1 })
  })

  it.each([
    // [today, days since Jan 1, hand-computed importance]
    ['2026-01-01', 0, 0.5], // just said
    ['2026-01-31', 30, 0.5], // last day of the grace: no decay yet
    ['2026-03-17', 75, 0.25], // 45 days past the grace: one half-life
    ['2026-05-01', 120, 0.125], // 90 days past: two half-lives
  ])('a fact said once on 2026-01-01, on %s (day %i): %f', (today, days, expected) => {
    expect(daysBetween('2026-01-01', today)).toBe(days)
    expect(factImportance(once('2026-01-01'), today, PARAMS)).toBeCloseTo(expected, 12)
  })

  it('decays only the days past the grace: day 31 is 0.5 × 0.5^(1/45) = 0.49236', () => {
    expect(factImportance(once('2026-01-01'), '2026-02-01', PARAMS)).toBeCloseTo(0.49236, 5)
  })

  it('reinforcement raises the base by 0.1 a day, up to 1', () => {
    const thrice = { firstSeen: '2025-12-01', lastSeen: '2026-01-01', daysSeen: 3 }
    expect(factImportance(thrice, '2026-01-01', PARAMS)).toBeCloseTo(0.7, 12)
    expect(factImportance(thrice, '2026-05-01', PARAMS)).toBeCloseTo(0.175, 12) // 0.7 × 0.25
    const often = { ...thrice, daysSeen: 9 } // 0.5 + 0.8, capped at 1
    expect(factImportance(often, '2026-03-17', PARAMS)).toBeCloseTo(0.5, 12) // 1 × 0.5
  })

  it('crosses the floor of a fact said once between day 134 (0.1008) and day 135 (0.0992)', () => {
    const day134 = factImportance(once('2026-01-01'), '2026-05-15', PARAMS)
    const day135 = factImportance(once('2026-01-01'), '2026-05-16', PARAMS)
    expect(day134).toBeCloseTo(0.10075, 5) // 0.5 × 2^(-104/45)
    expect(day135).toBeCloseTo(0.09921, 5) // 0.5 × 2^(-105/45)
    expect(isBelowFloor(day134, PARAMS)).toBe(false)
    expect(isBelowFloor(day135, PARAMS)).toBe(true)
  })

  it('first seen does not change the number; a future last seen is not decay; half-life 0 turns decay off', () => {
    const early = { firstSeen: '2025-01-01', lastSeen: '2026-01-01', daysSeen: 1 }
    expect(factImportance(early, '2026-05-01', PARAMS)).toBe(
      factImportance(once('2026-01-01'), '2026-05-01', PARAMS),
    )
    expect(factImportance(once('2026-06-01'), '2026-05-01', PARAMS)).toBe(0.5)
    expect(factImportance(once('2020-01-01'), '2026-05-01', { ...PARAMS, halfLifeDays: 0 })).toBe(0.5)
  })
})

describe('reinforcement counts distinct days', () => {
  const seen = { firstSeen: '2026-01-05', lastSeen: '2026-02-10', daysSeen: 2 }

  it('counts a day after the last or before the first, once', () => {
    expect(reinforce(seen, '2026-03-01')).toEqual({ ...seen, lastSeen: '2026-03-01', daysSeen: 3 })
    expect(reinforce(seen, '2025-12-24')).toEqual({ ...seen, firstSeen: '2025-12-24', daysSeen: 3 })
  })

  it.each(['2026-01-05', '2026-01-20', '2026-02-10'])(
    'never counts %s again (a re-dream of seen days)',
    (day) => {
      expect(reinforce(seen, day)).toBe(seen)
    },
  )
})

describe('freshness on a bullet line', () => {
  const line = '- **City: Porto** — I live in Porto. [[2026-01-05]] <!-- key: user.city; value: Porto -->'

  it('reads a line without a seen field from its day links', () => {
    expect(freshnessOf(line)).toEqual(once('2026-01-05'))
    const restated = line.replace('[[2026-01-05]]', '[[2026-01-05]] [[2026-03-02]]')
    expect(freshnessOf(restated)).toEqual({ firstSeen: '2026-01-05', lastSeen: '2026-03-02', daysSeen: 2 })
  })

  it('writes the seen field into the key comment and reads it back', () => {
    const seen = { firstSeen: '2026-01-05', lastSeen: '2026-02-10', daysSeen: 2 }
    const written = withSeen(line, seen)
    expect(written).toBe(
      '- **City: Porto** — I live in Porto. [[2026-01-05]] <!-- key: user.city; value: Porto; seen: 2026-01-05..2026-02-10 x2 -->',
    )
    expect(freshnessOf(written)).toEqual(seen)
    const again = withSeen(written, { ...seen, lastSeen: '2026-04-01', daysSeen: 3 })
    expect(again).toContain('; seen: 2026-01-05..2026-04-01 x3 -->')
    expect(again.match(/seen:/g)).toHaveLength(1)
  })

  it('widens a stored seen field by a later day link a model added', () => {
    const stored = withSeen(line, { firstSeen: '2026-01-05', lastSeen: '2026-02-10', daysSeen: 2 })
    const linked = stored.replace('[[2026-01-05]]', '[[2026-01-05]] [[2026-03-01]]')
    expect(freshnessOf(linked)).toEqual({ firstSeen: '2026-01-05', lastSeen: '2026-03-01', daysSeen: 3 })
  })

  it('has no freshness without a key comment or a day', () => {
    expect(freshnessOf('- I live in Porto. [[2026-01-05]]')).toBeNull()
    expect(freshnessOf('- I live in Porto. <!-- key: user.city; value: Porto -->')).toBeNull()
    expect(lineImportance('- undated <!-- key: user.x -->', '2030-01-01', PARAMS)).toBeNull()
  })

  it('keeps a plan alive until its own date', () => {
    const plan = '- **2026-12-11** — launch [[2026-01-05]] <!-- key: plan.launch; value: 2026-12-11 -->'
    expect(anchorDay(plan, freshnessOf(plan)!)).toBe('2026-12-11')
    expect(lineImportance(plan, '2026-11-01', PARAMS)).toBe(0.5)
    // 2027-02-09 is 60 days after the launch: 0.5 × 0.5^(30/45) = 0.31498
    expect(lineImportance(plan, '2027-02-09', PARAMS)).toBeCloseTo(0.31498, 5)
  })
})
