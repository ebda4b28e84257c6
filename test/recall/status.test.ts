// memoryCounts / describeMemoryCounts: the numbers behind `memory status` and `/dreaming status`.
import { describe, expect, it } from 'vitest'
import { recordRecall } from '../../src/recall/events.js'
import { promoteMemory } from '../../src/recall/promote.js'
import {
  describeMemoryCounts,
  formatCount,
  memoryCounts,
  type MemoryCounts,
} from '../../src/recall/status.js'
import { makeRecallWorld } from './world.js'

describe('memoryCounts', () => {
  it('is all zeros on a fresh state.db', () => {
    const world = makeRecallWorld()
    expect(memoryCounts(world.state, world.clock, world.config)).toEqual({
      preset: 'core',
      shortTerm: 0,
      ready: 0,
      promoted: 0,
      lastPromotionAt: null,
      events: 0,
      compactedChunks: 0,
    })
  })

  it('counts short-term candidates, ready ones, promotions and the store', async () => {
    const world = makeRecallWorld()
    const record = (day: string, query: string, line: number) =>
      recordRecall(world.state, {
        query,
        hits: [{ path: 'notes/people.md', line, snippet: '', score: 5 }],
        chatJid: 'alex@chat',
        at: new Date(`${day}T10:00:00Z`),
        workspace: world.paths.workspace,
      })
    const mayaRecalls: [string, string][] = [
      ['2026-11-10', 'porto'],
      ['2026-11-12', 'maya'],
      ['2026-11-14', 'sister'],
    ]
    for (const [day, query] of mayaRecalls) record(day, query, 3)
    record('2026-11-14', 'kite', 4)
    world.clock.set('2026-11-15T09:00:00Z')
    expect(memoryCounts(world.state, world.clock, world.config)).toMatchObject({
      shortTerm: 2,
      ready: 1,
      promoted: 0,
      events: 4,
    })
    await promoteMemory(
      { state: world.state, paths: world.paths, config: world.config, clock: world.clock },
      { apply: true },
    )
    expect(memoryCounts(world.state, world.clock, world.config)).toMatchObject({
      shortTerm: 1,
      ready: 0,
      promoted: 1,
      lastPromotionAt: '2026-11-15T09:00:00.000Z',
    })
  })
})

describe('describeMemoryCounts', () => {
  const counts: MemoryCounts = {
    preset: 'core',
    shortTerm: 12,
    ready: 2,
    promoted: 5,
    lastPromotionAt: '2026-11-20T01:00:00.000Z',
    events: 1234,
    compactedChunks: 0,
  }

  it('says it in one line', () => {
    expect(describeMemoryCounts(counts)).toBe(
      'Recall: 12 short-term (2 ready, core), 5 promoted (last 2026-11-20 01:00 UTC), 1,234 events stored.',
    )
  })

  it('leaves out the last promotion when there is none, and adds compacted chunks when there are some', () => {
    const line = describeMemoryCounts({ ...counts, promoted: 0, lastPromotionAt: null, compactedChunks: 7 })
    expect(line).toBe(
      'Recall: 12 short-term (2 ready, core), 0 promoted, 1,234 events stored + 7 compacted chunks.',
    )
    expect(line.includes('\n')).toBe(false)
  })
})

describe('formatCount', () => {
  it('groups thousands as toLocaleString("en-US") does', () => {
    const values = [
      0,
      -0,
      7,
      999,
      1000,
      12_345,
      999_999,
      1_000_000,
      123_456_789,
      -1234,
      2 ** 53 - 1,
      2 ** 53,
      1.5,
      NaN,
    ]
    for (const value of values) expect(formatCount(value), String(value)).toBe(value.toLocaleString('en-US'))
  })
})
