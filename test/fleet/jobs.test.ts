// Dream job ids: one per workspace, mode and window, the window taken in the workspace's own zone.
import { describe, expect, it } from 'vitest'
import { dreamJobFor, dreamJobId, dreamJobSchema, windowOfJob } from '../../src/fleet/jobs.js'

const NOW = new Date('2026-11-21T20:00:00Z')

describe('dream jobs', () => {
  it('gives two triggers of the same workspace, mode and window the same id', () => {
    const first = dreamJobFor({ workspaceId: 'alice', mode: 'auto', days: 2, now: NOW, timeZone: 'UTC' })
    const later = dreamJobFor({
      workspaceId: 'alice',
      mode: 'auto',
      days: 2,
      now: new Date('2026-11-21T23:59:00Z'),
      timeZone: 'UTC',
    })
    expect(dreamJobId(first)).toBe('alice.auto.2026-11-20..2026-11-21')
    expect(dreamJobId(later)).toBe(dreamJobId(first))
  })

  it('tells windows, modes and workspaces apart', () => {
    const ids = [
      { workspaceId: 'alice', mode: 'auto' as const, days: 2 },
      { workspaceId: 'alice', mode: 'manual' as const, days: 2 },
      { workspaceId: 'alice', mode: 'auto' as const, days: 3 },
      { workspaceId: 'bob', mode: 'auto' as const, days: 2 },
    ].map((input) => dreamJobId(dreamJobFor({ ...input, now: NOW, timeZone: 'UTC' })))
    expect(new Set(ids).size).toBe(4)
  })

  it("takes the window in the workspace's zone: at 20:00 UTC it is already tomorrow in Auckland", () => {
    const auckland = dreamJobFor({
      workspaceId: 'a',
      mode: 'auto',
      days: 1,
      now: NOW,
      timeZone: 'Pacific/Auckland',
    })
    const honolulu = dreamJobFor({
      workspaceId: 'h',
      mode: 'auto',
      days: 1,
      now: NOW,
      timeZone: 'Pacific/Honolulu',
    })
    expect(auckland.endDay).toBe('2026-11-22')
    expect(honolulu.endDay).toBe('2026-11-21')
    expect(windowOfJob(auckland, 'Pacific/Auckland').start.toISOString()).toBe('2026-11-21T11:00:00.000Z')
  })

  it('carries the retry delays only for auto dreams, and checks job data strictly', () => {
    const manual = dreamJobFor({
      workspaceId: 'a',
      mode: 'manual',
      days: 7,
      now: NOW,
      timeZone: 'UTC',
      retryDelaysMinutes: [5],
    })
    expect(manual.retryDelaysMinutes).toEqual([])
    expect(dreamJobSchema.safeParse({ ...manual, endDay: 'yesterday' }).success).toBe(false)
    expect(dreamJobSchema.safeParse({ ...manual, extra: 1 }).success).toBe(false)
    expect(dreamJobSchema.parse(manual)).toEqual(manual)
  })
})
