// Promotion sweeps on the dream lane: scheduled beside AutoDream, gated, recorded, reviewable and undoable.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { recordRecall } from '../../src/recall/events.js'
import { diaryPath } from '../../src/notes/dream-diary.js'
import { fakeTimers } from '../helpers/fake-timers.js'
import { makeDreamWorld } from '../helpers/dream-world.js'

const PEOPLE =
  "# People\n\n- Maya is Alex's sister and lives in Porto\n- Sam runs the kite shop on Harbour Street\n"
const START = '2026-11-15T23:00:00.000Z'

/** A scripted week of chat: each day at 10:00 a search hits Maya's line with a new query; Sam's once. */
const WEEK = [
  { day: '2026-11-16', query: 'where does maya live', line: 3 },
  { day: '2026-11-17', query: 'alex sister', line: 3 },
  { day: '2026-11-18', query: 'maya porto', line: 3 },
  { day: '2026-11-18', query: 'kite shop', line: 4 },
]

async function sweepWorld() {
  const world = await makeDreamWorld()
  writeFileSync(join(world.dir, 'notes/people.md'), PEOPLE)
  const timers = fakeTimers(START)
  const dreamlane = world.open({ clock: timers.clock, timers: timers.timers })
  dreamlane.setAutoDream(false) // the nightly dream is tested elsewhere; here only the sweeps write
  dreamlane.startAutoDream()
  /** Moves the clock hour by hour (every schedule fires at its own time), recording the week's searches. */
  async function liveUntil(iso: string): Promise<void> {
    let at = timers.clock.now().getTime()
    const end = Date.parse(iso)
    while (at < end) {
      at = Math.min(end, at + 3_600_000)
      await timers.advanceTo(new Date(at).toISOString())
      await dreamlane.lanes.onIdle()
      const now = new Date(at).toISOString()
      for (const search of WEEK.filter((s) => `${s.day}T10:00:00.000Z` === now)) {
        recordRecall(dreamlane.state, {
          query: search.query,
          hits: [{ path: 'notes/people.md', line: search.line, snippet: '', score: 5 }],
          chatJid: 'web:main',
          at: new Date(at),
          workspace: world.dir,
        })
      }
    }
  }
  const memory = () => readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8')
  return { world, dreamlane, liveUntil, memory, clock: timers.clock }
}

describe('promotion sweeps', () => {
  it('promote the expected chunk at the expected deep sweep, with a run record, ledger, diary line and undo', async () => {
    const { world, dreamlane, liveUntil, memory } = await sweepWorld()
    const original = memory()
    await liveUntil('2026-11-18T12:00:00.000Z')
    // Deep sweeps at 03:00: the 16th has no recall yet (signal); the 17th and 18th find chunks below the gates.
    const deep = () => dreamlane.listRuns({ limit: 100 }).filter((run) => run.mode === 'deep')
    expect(deep().map((run) => [run.createdAt.slice(0, 13), run.status, run.gate])).toEqual([
      ['2026-11-18T03', 'succeeded', 'triggered'],
      ['2026-11-17T03', 'succeeded', 'triggered'],
      ['2026-11-16T03', 'skipped', 'signal'],
    ])
    expect(memory()).toBe(original)
    const beforeSweep = memory()
    await liveUntil('2026-11-19T04:00:00.000Z')
    const [promoting] = deep()
    expect(promoting).toMatchObject({ status: 'succeeded', gate: 'triggered' })
    expect(promoting?.createdAt.slice(0, 16)).toBe('2026-11-19T03:00')
    // Maya's line, recalled on three days with three queries, is promoted — dated and scored; Sam's is not.
    expect(memory()).toMatch(
      /## Promoted from recall\n\n- Maya is Alex's sister and lives in Porto — \[notes\/people\.md:3\]\(\.\.\/people\.md\) \(2026-11-19, score 0\.\d\d\) <!-- recall:[0-9a-f]{12} -->/,
    )
    expect(memory()).not.toContain('kite')
    // Its ledger and backup make it reviewable; its diary line says what it read and changed.
    expect(promoting?.changes).toMatchObject({ files: 1 })
    expect(promoting?.backupId).toMatch(/-deep-/)
    expect(dreamlane.changes(promoting!.id).map((c) => c.path)).toEqual(['notes/memory/MEMORY.md'])
    const diary = readFileSync(diaryPath(world.paths), 'utf8')
    expect(diary).toContain(`· sweep deep · succeeded · ${promoting!.id} — read`)
    expect(diary).toMatch(/changed MEMORY\.md: 1 promotion\(s\).*<!-- files: 1; promoted: 1 -->/)
    expect(diary).toMatch(/· sweep light · succeeded ·/)
    // Undo restores MEMORY.md byte for byte.
    const undone = await dreamlane.undo(promoting!.id)
    expect(undone.run.status).toBe('succeeded')
    expect(memory()).toBe(beforeSweep)
    await dreamlane.shutdown()
  })

  it('/dreaming off stops them (disabled); /dreaming deep switches the preset they promote with', async () => {
    const { dreamlane, liveUntil } = await sweepWorld()
    expect(await dreamlane.handleChatInput('web:main', '/dreaming off')).toMatch(/Promotion sweeps: off/)
    await liveUntil('2026-11-16T04:00:00.000Z')
    const deep = dreamlane.listRuns({ limit: 100 }).filter((run) => run.mode === 'deep')
    expect(deep.map((run) => [run.status, run.gate])).toEqual([['skipped', 'disabled']])
    expect(await dreamlane.handleChatInput('web:main', '/dreaming deep')).toMatch(
      /Promotion sweeps: deep preset \(light next 2026-11-16 06:00 UTC, deep next 2026-11-17 03:00 UTC, rem next 2026-11-22 05:00 UTC\)/,
    )
    expect((await dreamlane.status()).sweeps.mode).toBe('deep')
    await dreamlane.shutdown()
  })

  it('a sweep in flight never swallows a dream: the dream queues behind it on the lane', async () => {
    const { dreamlane } = await sweepWorld()
    const sweep = dreamlane.trigger({ mode: 'deep', chatJid: 'web:main', days: 1, requested: true })
    const dream = dreamlane.trigger({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const again = dreamlane.trigger({ mode: 'deep', chatJid: 'web:main', days: 1, requested: true })
    expect([sweep.coalesced, dream.coalesced, again.coalesced]).toEqual([false, false, true])
    expect(again.run.id).toBe(sweep.run.id)
    const [swept, dreamt] = await Promise.all([sweep.done, dream.done])
    expect([swept.mode, swept.status, dreamt.mode, dreamt.status]).toEqual([
      'deep',
      'succeeded',
      'manual',
      'succeeded',
    ])
    expect(Date.parse(dreamt.startedAt!)).toBeGreaterThanOrEqual(Date.parse(swept.finishedAt!))
    await dreamlane.shutdown()
  })
})
