// `dreamlane fleet run` as the long-running process it is: real ticks on a short cron, a catch-up at start,
// real worker processes dreaming on real Redis, and a clean exit on SIGTERM.
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { openDreamlane } from '../../src/create.js'
import { openDreamQueue } from '../../src/fleet/queue.js'
import {
  makeFleetWorld,
  startFleetProcess,
  startWorkerProcess,
  waitFor,
  type FleetWorldWorkspace,
} from '../helpers/fleet-world.js'
import { SKIP_REDIS, useRedisServer } from '../helpers/redis-server.js'

interface LogLine {
  level: number
  msg: string
  workspace?: string
  workspaceId?: string
  jobId?: string
  coalesced?: boolean
}

function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
}

function autoRunsOf(workspace: FleetWorldWorkspace) {
  const dreamlane = openDreamlane({ config: workspace.config, logger: pino({ level: 'silent' }) })
  try {
    return dreamlane.listRuns({ limit: 100 }).filter((run) => run.mode === 'auto')
  } finally {
    void dreamlane.close()
  }
}

/** A cron pattern that fires once, at `at` (UTC, to the second), and last fired a year before. */
function onceAt(at: Date): string {
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} *`
}

describe.skipIf(SKIP_REDIS)('the fleet producer as a long-running process', () => {
  const redis = useRedisServer()

  it('catches up the missed night, ticks on its schedules, workers dream each window once, SIGTERM stops it', async () => {
    const firstTickAt = new Date(Date.now() + 12_000)
    const world = await makeFleetWorld(4, redis().url, {
      settings: (i) =>
        [
          // Its AutoDream comes while the producer runs: the tick enqueues it.
          { autoDream: { cron: onceAt(firstTickAt) } },
          // Every two seconds: caught up at start, then every tick joins that job.
          { autoDream: { cron: '*/2 * * * * *' } },
          // Nightly at 01:00 UTC, which passed while no producer ran: caught up at start.
          {},
          { autoDream: { enabled: false } },
        ][i] ?? {},
    })
    const [ticked, frequent, nightly, off] = world.workspaces as [
      FleetWorldWorkspace,
      FleetWorldWorkspace,
      FleetWorldWorkspace,
      FleetWorldWorkspace,
    ]
    const producer = startFleetProcess(world, ['fleet', '--fleet', world.file, 'run'])
    const workers = [0, 1].map(() => startWorkerProcess(world, ['--claim-ms', '5000']))
    const queue = await openDreamQueue(redis().url)
    try {
      const enqueued = (msg: string, id: string) =>
        logLines(producer.output()).filter((line) => line.msg === msg && line.workspaceId === id)
      await waitFor('the catch-up at start', async () =>
        enqueued('missed AutoDream enqueued', nightly.id).length ? true : undefined,
      )
      expect(enqueued('missed AutoDream enqueued', frequent.id)).toHaveLength(1)
      expect(enqueued('missed AutoDream enqueued', ticked.id)).toEqual([])
      await waitFor('the first tick of the once-only schedule', async () =>
        logLines(producer.output()).some(
          (line) => line.msg === 'AutoDream enqueued' && line.workspace === ticked.id && !line.coalesced,
        )
          ? true
          : undefined,
      )
      // Three windows, one job each, whatever the number of ticks: every two-second tick joins its job.
      await waitFor('three jobs to complete', async () => {
        const counts = await queue.getJobCounts('completed', 'failed')
        return (counts.completed ?? 0) + (counts.failed ?? 0) >= 3 ? counts : undefined
      })
      await waitFor('more ticks of the two-second schedule', async () => {
        const ticks = logLines(producer.output()).filter(
          (line) => line.msg === 'AutoDream enqueued' && line.workspace === frequent.id,
        )
        return ticks.length >= 3 && ticks.every((line) => line.coalesced) ? true : undefined
      })
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed')
      expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: 3, failed: 0 })

      producer.child.kill('SIGTERM')
      const exit = await Promise.race([
        producer.exited.then(() => ({ code: producer.child.exitCode, signal: producer.child.signalCode })),
        new Promise((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000)),
      ])
      expect(exit, producer.output()).toEqual({ code: 0, signal: null })
      expect(logLines(producer.output()).filter((line) => line.level >= 50)).toEqual([])
    } finally {
      await queue.close()
    }
    for (const worker of workers) worker.child.kill('SIGTERM')
    await Promise.all(workers.map((worker) => worker.exited))

    for (const ws of [ticked, frequent, nightly])
      expect(
        autoRunsOf(ws).map((run) => run.status),
        `${ws.id}\n${workers.map((w) => w.output()).join('\n')}`,
      ).toEqual(['succeeded'])
    expect(autoRunsOf(off)).toEqual([])
  }, 180_000)
})
