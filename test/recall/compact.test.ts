// Compaction: old events fold into per-chunk totals, rows go away, and every signal reads the same after.
import { describe, expect, it } from 'vitest'
import { compactRecall } from '../../src/recall/compact.js'
import { recordRecall } from '../../src/recall/events.js'
import { loadCandidateStats } from '../../src/recall/stats.js'
import { MAX_TRACKED, capTotals, mergeTotals, type ChunkTotals } from '../../src/recall/totals.js'
import { DAY_MS, makeRecallWorld } from './world.js'

const START = Date.parse('2026-10-01T10:00:00Z')

function recordDays(world: ReturnType<typeof makeRecallWorld>, days: number, perDay: number): void {
  for (let day = 0; day < days; day++) {
    for (let i = 0; i < perDay; i++) {
      recordRecall(world.state, {
        query: `query ${(day + i) % 7}`,
        hits: [
          { path: 'notes/people.md', line: 4, snippet: '', score: 3 },
          { path: 'notes/projects/atlas.md', line: 3, snippet: '', score: 1 + (i % 3) },
        ],
        chatJid: 'alex@chat',
        at: new Date(START + day * DAY_MS + i * 60_000),
        workspace: world.paths.workspace,
      })
    }
  }
}

const byKey = (stats: ReturnType<typeof loadCandidateStats>) =>
  Object.fromEntries(stats.map((s) => [s.chunkKey, s]))

describe('compactRecall', () => {
  it('deletes events before the horizon and keeps every signal input identical', () => {
    const world = makeRecallWorld()
    recordDays(world, 20, 3)
    const before = byKey(loadCandidateStats(world.state))
    const result = compactRecall(world.state, { before: new Date(START + 12 * DAY_MS) })
    expect(result).toEqual({ events: 12 * 3 * 2, chunks: 2 })
    expect(world.eventRows()).toHaveLength(8 * 3 * 2)
    const after = byKey(loadCandidateStats(world.state))
    for (const [key, stats] of Object.entries(before)) {
      expect(after[key]).toMatchObject({ ...stats, relevanceSum: expect.closeTo(stats.relevanceSum, 9) })
    }
  })

  it('folds again into existing totals on a later pass, and is a no-op with nothing old', () => {
    const world = makeRecallWorld()
    recordDays(world, 10, 2)
    const before = byKey(loadCandidateStats(world.state))
    compactRecall(world.state, { before: new Date(START + 3 * DAY_MS) })
    compactRecall(world.state, { before: new Date(START + 8 * DAY_MS) })
    expect(compactRecall(world.state, { before: new Date(START) })).toEqual({ events: 0, chunks: 0 })
    const after = byKey(loadCandidateStats(world.state))
    expect(Object.keys(after)).toEqual(Object.keys(before))
    for (const [key, stats] of Object.entries(before)) {
      expect(after[key]).toMatchObject({
        recalls: stats.recalls,
        uniqueQueries: stats.uniqueQueries,
        recallDays: 10,
      })
    }
    expect(world.state.prepare('SELECT count(*) AS n FROM recall_totals').get()).toEqual({ n: 2 })
  })
})

describe('totals merging', () => {
  const totals = (overrides: Partial<ChunkTotals>): ChunkTotals => ({
    recalls: 1,
    relevanceSum: 1,
    scoreSum: 1,
    firstAtMs: 10,
    lastAtMs: 10,
    firstDay: '2026-11-01',
    lastDay: '2026-11-01',
    queries: ['q1'],
    days: ['2026-11-01'],
    ...overrides,
  })

  it('sums counts, keeps extremes and unions the sets', () => {
    const merged = mergeTotals(
      totals({}),
      totals({
        recalls: 2,
        firstAtMs: 5,
        lastAtMs: 50,
        firstDay: '2026-10-30',
        lastDay: '2026-11-03',
        queries: ['q1', 'q2'],
        days: ['2026-11-03'],
      }),
    )
    expect(merged).toEqual({
      recalls: 3,
      relevanceSum: 2,
      scoreSum: 2,
      firstAtMs: 5,
      lastAtMs: 50,
      firstDay: '2026-10-30',
      lastDay: '2026-11-03',
      queries: ['q1', 'q2'],
      days: ['2026-11-01', '2026-11-03'],
    })
  })

  it(`caps stored sets at ${MAX_TRACKED}, keeping the most recent days`, () => {
    const days = Array.from({ length: 100 }, (_, i) =>
      new Date(Date.UTC(2026, 0, 1) + i * DAY_MS).toISOString().slice(0, 10),
    )
    const queries = Array.from({ length: 100 }, (_, i) => `q${String(i).padStart(3, '0')}`)
    const capped = capTotals(totals({ days, queries }))
    expect(capped.days).toHaveLength(MAX_TRACKED)
    expect(capped.days[0]).toBe(days.at(-1))
    expect(capped.queries).toHaveLength(MAX_TRACKED)
  })
})
