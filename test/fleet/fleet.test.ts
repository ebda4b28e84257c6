// The fleet end to end on real Redis: worker processes, a nightly tick, double triggers, one dream per workspace.
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import { openDreamlane } from '../../src/create.js'
import type { RunRecord } from '../../src/dream/types.js'
import { openDreamQueue } from '../../src/fleet/queue.js'
import { runCli } from '../helpers/cli.js'
import {
  makeFleetWorld,
  startWorkerProcess,
  waitFor,
  type FleetWorldWorkspace,
} from '../helpers/fleet-world.js'
import { SKIP_REDIS, useRedisServer } from '../helpers/redis-server.js'
import { makeTempDir } from '../helpers/workspace.js'

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Pacific/Auckland']

function runsOf(workspace: FleetWorldWorkspace): RunRecord[] {
  const dreamlane = openDreamlane({ config: workspace.config, logger: pino({ level: 'silent' }) })
  try {
    return dreamlane.listRuns({ limit: 100 })
  } finally {
    void dreamlane.close()
  }
}

/** Every file under notes/, path → content. */
function readNotes(notesDir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(notesDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const full = join(entry.parentPath, entry.name)
    const text = readFileSync(full, 'utf8')
    // The dream diary names each run by its (random) id and the minute it ended; the rest of its line must match.
    out[relative(notesDir, full)] =
      entry.name === 'DREAMS.md'
        ? text.replace(/run-\S+/g, 'run-…').replace(/\b\d{2}:\d{2}\b/g, 'HH:MM')
        : text
  }
  return out
}

function overlaps(runs: RunRecord[]): boolean {
  const spans = runs
    .filter((run) => run.startedAt && run.finishedAt)
    .map((run) => [Date.parse(run.startedAt as string), Date.parse(run.finishedAt as string)] as const)
    .sort((a, b) => a[0] - b[0])
  return spans.some((span, i) => i > 0 && span[0] < (spans[i - 1] as readonly [number, number])[1])
}

describe.skipIf(SKIP_REDIS)('a fleet of workspaces on Redis', () => {
  const redis = useRedisServer()

  // The 60 workspaces run too: small ones, so the slower case stays far inside its timeout on 2 cores.
  it.each([
    { count: 8, manual: 2, compared: 6 },
    { count: 60, manual: 6, compared: 4 },
  ])(
    '$count workspaces on three workers: each dreams exactly once, never two at a time, as one process would',
    async ({ count, manual, compared }) => {
      const world = await makeFleetWorld(count, redis().url, {
        settings: (i) => ({ timezone: ZONES[i % ZONES.length] }),
      })
      const manualIds = world.workspaces.slice(0, manual).map((ws) => ws.id)
      const comparedWorkspaces = world.workspaces.slice(manual, manual + compared)
      // The single-process reference: the same data, dreamed in this process once the fleet is done.
      const referenceDir = makeTempDir('dreamlane-reference-')
      for (const ws of comparedWorkspaces)
        cpSync(ws.config.workspace, join(referenceDir, ws.id), { recursive: true })

      const tick = await runCli(['fleet', '--fleet', world.file, 'tick', '--json'])
      expect(tick.stderr).toBe('')
      const enqueued = JSON.parse(tick.stdout) as { workspaceId: string; coalesced: boolean }[]
      expect(enqueued.map((r) => r.coalesced)).toEqual(Array(count).fill(false))
      // A second tick for the same night (a restarted producer, a cron overlap) joins the jobs already there.
      const again = JSON.parse((await runCli(['fleet', '--fleet', world.file, 'tick', '--json'])).stdout)
      expect(again.map((r: { coalesced: boolean }) => r.coalesced)).toEqual(Array(count).fill(true))
      // Manual dreams compete with their workspaces' auto dreams. The queue is FIFO, so each auto job is taken
      // first; its manual job then waits (delayed) while the auto dream holds the workspace's lock.
      for (const id of manualIds)
        expect((await runCli(['fleet', '--fleet', world.file, 'trigger', id, '--days', '2'])).code).toBe(0)

      const workers = [0, 1, 2].map(() => startWorkerProcess(world, ['--claim-ms', '5000']))
      const queue = await openDreamQueue(redis().url)
      try {
        const total = count + manual
        const counts = await waitFor(
          `all ${total} jobs to complete`,
          async () => {
            const now = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed')
            return (now.completed ?? 0) + (now.failed ?? 0) === total ? now : undefined
          },
          480_000,
        )
        expect(counts.failed, workers.map((w) => w.output()).join('\n')).toBe(0)
      } finally {
        await queue.close()
      }

      for (const ws of world.workspaces) {
        const runs = runsOf(ws)
        const auto = runs.filter((run) => run.mode === 'auto')
        expect(
          auto.map((run) => run.status),
          ws.id,
        ).toEqual(['succeeded'])
        expect(runs.filter((run) => run.mode === 'manual')).toHaveLength(manualIds.includes(ws.id) ? 1 : 0)
        expect(
          overlaps(runs),
          `${ws.id}: ${JSON.stringify(runs.map((r) => [r.startedAt, r.finishedAt]))}`,
        ).toBe(false)
      }

      for (const ws of comparedWorkspaces) {
        const [fleetRun] = runsOf(ws)
        const before = readNotes(join(referenceDir, ws.id, 'notes'))
        expect(readNotes(ws.paths.notes), `${ws.id} was dreamed`).not.toEqual(before)
        const config = resolveConfig({ env: {}, flags: { workspace: join(referenceDir, ws.id) } })
        const reference = openDreamlane({ config, logger: pino({ level: 'silent' }) })
        try {
          const run = await reference.dream({
            mode: 'auto',
            chatJid: fleetRun?.chatJid as string,
            days: fleetRun?.days as number,
            endDay: fleetRun?.lastDay as string,
          })
          expect(run.status).toBe('succeeded')
        } finally {
          await reference.close()
        }
        expect(readNotes(ws.paths.notes), ws.id).toEqual(readNotes(join(referenceDir, ws.id, 'notes')))
      }
      for (const worker of workers) worker.child.kill('SIGTERM')
      await Promise.all(workers.map((worker) => worker.exited))
    },
    600_000,
  )

  it('retries a failing auto dream with the workspace backoff, then shows it in `fleet status` and `runs --failed`', async () => {
    const world = await makeFleetWorld(2, redis().url, {
      settings: () => ({ autoDream: { retryDelaysMinutes: [0.002, 0.002] } }),
    })
    const [broken] = world.workspaces as [FleetWorldWorkspace]
    rmSync(broken.paths.messagesDb)
    const tick = JSON.parse((await runCli(['fleet', '--fleet', world.file, 'tick', '--json'])).stdout) as {
      jobId: string
    }[]
    startWorkerProcess(world)
    const queue = await openDreamQueue(redis().url)
    try {
      await waitFor('one job failed and one completed', async () => {
        const states = await Promise.all(
          tick.map(async ({ jobId }) => (await queue.getJob(jobId))?.getState()),
        )
        return states.join() === 'failed,completed' ? true : undefined
      })
    } finally {
      await queue.close()
    }
    const status = await runCli(['fleet', '--fleet', world.file, 'status'])
    expect(status.stdout).toMatch(/1 completed, 1 failed/)
    expect(status.stdout).toMatch(
      /ws-00\.auto\.\S+: failed after 3 attempt\(s\) — messages database not found/,
    )
    const runs = await runCli([
      '-w',
      broken.config.workspace,
      'runs',
      '--failed',
      '--fleet',
      world.file,
      '--json',
    ])
    expect(runs.code).toBe(0)
    const listed = JSON.parse(runs.stdout) as {
      fleet: { workspaceId: string; failed: { attempts: number }[] }
    }
    expect(listed.fleet.workspaceId).toBe('ws-00')
    expect(listed.fleet.failed.map((job) => job.attempts)).toEqual([3])
  }, 180_000)
})
