// The producer's triggers on real Redis: AutoDream per workspace in its own zone, and first-boot bootstraps.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Worker, type Queue } from 'bullmq'
import { pino } from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DREAM_QUEUE } from '../../src/fleet/jobs.js'
import { openDreamQueue } from '../../src/fleet/queue.js'
import { fleetWorkspace, loadFleetRegistry } from '../../src/fleet/registry.js'
import { bootstrapFleet, catchUpFleet, startFleetSchedules } from '../../src/fleet/schedules.js'
import { initWorkspace } from '../../src/notes/init-workspace.js'
import { workspacePaths } from '../../src/notes/paths.js'
import { fakeTimers } from '../helpers/fake-timers.js'
import { waitFor } from '../helpers/fleet-world.js'
import { SKIP_REDIS, startRedisServer, type RedisServer } from '../helpers/redis-server.js'
import { makeTempDir } from '../helpers/workspace.js'

/** A registry of workspaces named by their settings (written to each one's config.json). */
function makeRegistry(workspaces: Record<string, object>) {
  const dir = makeTempDir()
  for (const [id, settings] of Object.entries(workspaces)) {
    mkdirSync(join(dir, id, '.dreamlane'), { recursive: true })
    writeFileSync(join(dir, id, '.dreamlane', 'config.json'), JSON.stringify(settings))
  }
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ globs: ['*'] }))
  return loadFleetRegistry(join(dir, 'fleet.json'), {})
}

async function jobIds(queue: Queue): Promise<string[]> {
  const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])
  return jobs.map((job) => job.id ?? '?').sort()
}

describe.skipIf(SKIP_REDIS)('fleet triggers', () => {
  let redis: RedisServer
  let queue: Queue
  beforeAll(async () => {
    redis = await startRedisServer()
    queue = await openDreamQueue(redis.url)
  })
  beforeEach(async () => {
    await redis.flush()
  })
  afterAll(async () => {
    await queue?.close()
    await redis?.stop()
  })

  it("fires each workspace's AutoDream at 01:00 in its own zone, for the window ending that local day", async () => {
    const registry = makeRegistry({
      akl: { timezone: 'Pacific/Auckland' },
      ber: { timezone: 'Europe/Berlin' },
      off: { timezone: 'UTC', autoDream: { enabled: false } },
    })
    // 10:00 UTC on Nov 21 is 23:00 in Auckland (UTC+13) and 11:00 in Berlin.
    const { clock, timers, advanceTo } = fakeTimers('2026-11-21T10:00:00.000Z')
    const schedules = startFleetSchedules(registry, { queue, clock, timers, log: pino({ level: 'silent' }) })
    try {
      expect(schedules.nextRunAt('akl')?.toISOString()).toBe('2026-11-21T12:00:00.000Z')
      expect(schedules.nextRunAt('ber')?.toISOString()).toBe('2026-11-22T00:00:00.000Z')
      expect(schedules.nextRunAt('off')).toBeNull()

      await advanceTo('2026-11-21T12:30:00.000Z')
      const auckland = 'akl.auto.2026-11-21..2026-11-22'
      await waitFor('the Auckland job', async () =>
        (await jobIds(queue)).includes(auckland) ? true : undefined,
      )
      expect(await jobIds(queue)).toEqual([auckland])

      await advanceTo('2026-11-22T00:30:00.000Z')
      const berlin = 'ber.auto.2026-11-21..2026-11-22'
      await waitFor('the Berlin job', async () => ((await jobIds(queue)).length === 2 ? true : undefined))
      expect(await jobIds(queue)).toEqual([auckland, berlin])
    } finally {
      schedules.stop()
    }
  })

  it('a producer starting after an AutoDream time enqueues that night once; a fire days ago is left alone', async () => {
    const registry = makeRegistry({
      akl: { timezone: 'Pacific/Auckland' },
      ber: { timezone: 'Europe/Berlin' },
      off: { timezone: 'UTC', autoDream: { enabled: false } },
      // Mondays at 01:00: last fired five days before this Saturday, past what finished jobs are kept for.
      weekly: { timezone: 'UTC', autoDream: { cron: '0 1 * * 1' } },
    })
    // 10:00 UTC on Saturday Nov 21: Berlin's 01:00 passed at 00:00 UTC, Auckland's at 12:00 UTC the day before.
    const { clock } = fakeTimers('2026-11-21T10:00:00.000Z')
    const deps = { queue, clock, log: pino({ level: 'silent' }) }
    const caughtUp = await catchUpFleet(registry, deps)
    expect(caughtUp.map((r) => [r.workspaceId, r.firedAt, r.jobId, r.coalesced])).toEqual([
      ['akl', '2026-11-20T12:00:00.000Z', 'akl.auto.2026-11-20..2026-11-21', false],
      ['ber', '2026-11-21T00:00:00.000Z', 'ber.auto.2026-11-20..2026-11-21', false],
    ])
    // Restarted again (or a second producer): the same windows, joined rather than enqueued twice.
    clock.set('2026-11-21T10:05:00.000Z')
    expect((await catchUpFleet(registry, deps)).map((r) => r.coalesced)).toEqual([true, true])
    expect(await jobIds(queue)).toEqual([
      'akl.auto.2026-11-20..2026-11-21',
      'ber.auto.2026-11-20..2026-11-21',
    ])
  })

  it('a producer that was up at the AutoDream time catches up nothing new on restart', async () => {
    const registry = makeRegistry({ ber: { timezone: 'Europe/Berlin' } })
    const { clock, timers, advanceTo } = fakeTimers('2026-11-20T23:30:00.000Z')
    const deps = { queue, clock, log: pino({ level: 'silent' }) }
    expect(await catchUpFleet(registry, deps)).toEqual([
      expect.objectContaining({ jobId: 'ber.auto.2026-11-19..2026-11-20', coalesced: false }),
    ])
    const schedules = startFleetSchedules(registry, { ...deps, timers })
    try {
      await advanceTo('2026-11-21T00:30:00.000Z')
      await waitFor('the nightly job', async () => ((await jobIds(queue)).length === 2 ? true : undefined))
    } finally {
      schedules.stop()
    }
    // A worker finishes both jobs; a restart later that morning joins the finished one instead of adding one.
    const worker = new Worker(DREAM_QUEUE, async () => 'done', { connection: { url: redis.url } })
    try {
      await waitFor('both jobs to complete', async () =>
        (await queue.getJobCounts('completed')).completed === 2 ? true : undefined,
      )
    } finally {
      await worker.close()
    }
    clock.set('2026-11-21T09:00:00.000Z')
    expect(await catchUpFleet(registry, deps)).toEqual([
      expect.objectContaining({ jobId: 'ber.auto.2026-11-20..2026-11-21', coalesced: true }),
    ])
    expect(await jobIds(queue)).toEqual([
      'ber.auto.2026-11-19..2026-11-20',
      'ber.auto.2026-11-20..2026-11-21',
    ])
  })

  it('enqueues one bootstrap dream per workspace missing its core memory files, once', async () => {
    const registry = makeRegistry({ fresh: { timezone: 'UTC' }, ready: { timezone: 'UTC' } })
    await initWorkspace(workspacePaths(fleetWorkspace(registry, 'ready').config))
    const { clock } = fakeTimers('2026-11-21T10:00:00.000Z')
    const deps = { queue, clock, log: pino({ level: 'silent' }) }
    const first = await bootstrapFleet(registry, deps)
    expect(first.map((r) => [r.workspaceId, r.jobId])).toEqual([
      ['fresh', 'fresh.bootstrap.2026-11-15..2026-11-21'],
    ])
    // A second producer starting (or a restart) finds the claim taken: nothing more is enqueued.
    expect(await bootstrapFleet(registry, deps)).toEqual([])
    expect(await jobIds(queue)).toEqual(['fresh.bootstrap.2026-11-15..2026-11-21'])
  })
})
