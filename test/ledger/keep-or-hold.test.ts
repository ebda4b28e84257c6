import { describe, expect, it } from 'vitest'
import { holdReasons, totalsOf, type HoldRules } from '../../src/ledger/keep-or-hold.js'
import type { ChangeTotals, LossFlag } from '../../src/ledger/types.js'

const ON_RISK: HoldRules = { review: 'on-risk', lossGuard: { maxRemovedShare: 0.2, maxFlaggedItems: 0 } }

function totals(patch: Partial<ChangeTotals>): ChangeTotals {
  return { ...totalsOf([]), files: 2, memoryBytes: 1_000, ...patch }
}

const flag = (term: string): LossFlag => ({
  kind: 'name',
  term,
  path: 'notes/memory/user.md',
  line: `- Lives near ${term}.`,
})
const noFlags = { flaggedCount: 0, flags: [] }
const flagged = (...terms: string[]) => ({ flaggedCount: terms.length, flags: terms.map(flag) })

describe('holdReasons', () => {
  it.each([
    ['a change under the removed-share limit', ON_RISK, totals({ removedShare: 0.19 }), noFlags, []],
    ['a change exactly at the limit', ON_RISK, totals({ removedShare: 0.2 }), noFlags, []],
    [
      'a change over the removed-share limit',
      ON_RISK,
      totals({ removedShare: 0.35, memoryBytesRemoved: 350 }),
      noFlags,
      ['it would remove 35% of notes/memory/ (350 of 1000 bytes; the limit is 20%)'],
    ],
    [
      'a higher removed-share limit',
      { ...ON_RISK, lossGuard: { maxRemovedShare: 0.5, maxFlaggedItems: 0 } },
      totals({ removedShare: 0.35, memoryBytesRemoved: 350 }),
      noFlags,
      [],
    ],
    [
      'one vanished name',
      ON_RISK,
      totals({}),
      flagged('Porto'),
      ['1 name(s), number(s) or date(s) would vanish from memory: Porto'],
    ],
    [
      'vanished names within maxFlaggedItems',
      { ...ON_RISK, lossGuard: { maxRemovedShare: 0.2, maxFlaggedItems: 2 } },
      totals({}),
      flagged('Porto', 'Atlas'),
      [],
    ],
    [
      'more vanished names than are named',
      ON_RISK,
      totals({}),
      flagged('A1', 'B2', 'C3', 'D4', 'E5', 'F6', 'G7'),
      ['7 name(s), number(s) or date(s) would vanish from memory: A1, B2, C3, D4, E5, +2 more'],
    ],
    [
      'both rules at once',
      ON_RISK,
      totals({ removedShare: 0.5, memoryBytesRemoved: 500 }),
      flagged('Porto'),
      [
        'it would remove 50% of notes/memory/ (500 of 1000 bytes; the limit is 20%)',
        '1 name(s), number(s) or date(s) would vanish from memory: Porto',
      ],
    ],
    [
      'review "always", even for a harmless change',
      { ...ON_RISK, review: 'always' },
      totals({}),
      noFlags,
      ['review is set to "always"'],
    ],
    [
      'review "never", whatever the loss guard says',
      { ...ON_RISK, review: 'never' },
      totals({ removedShare: 0.9, memoryBytesRemoved: 900 }),
      flagged('Porto'),
      [],
    ],
    [
      'a run that changed no file, even under "always"',
      { ...ON_RISK, review: 'always' },
      totals({ files: 0 }),
      noFlags,
      [],
    ],
  ] as const)('%s', (_name, rules, runTotals, guard, expected) => {
    expect(
      holdReasons(rules, runTotals, { flaggedCount: guard.flaggedCount, flags: [...guard.flags] }),
    ).toEqual(expected)
  })
})
