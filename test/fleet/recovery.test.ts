// The fleet surviving failures on real Redis: a worker killed mid-dream, and Redis itself restarted mid-run.
import { existsSync, readdirSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { systemClock } from '../../src/clock.js'
import { openStateDb } from '../../src/db/state.js'
import { RunStore } from '../../src/dream/runs.js'
import type { RunRecord } from '../../src/dream/types.js'
import { openDreamQueue } from '../../src/fleet/queue.js'
import { runCli } from '../helpers/cli.js'
import {
  anthropicReply,
  startScriptedServer,
  type FakeResponse,
  type FakeStep,
  type RecordedRequest,
} from '../helpers/fake-anthropic.js'
import {
  makeFleetWorld,
  startWorkerProcess,
  waitFor,
  type FleetWorldWorkspace,
} from '../helpers/fleet-world.js'
import { SKIP_REDIS, startRedisServer, type RedisServer } from '../helpers/redis-server.js'

function runsOf(workspace: FleetWorldWorkspace): RunRecord[] {
  const state = openStateDb(workspace.paths.stateDb)
  try {
    return new RunStore(state, systemClock, workspace.config.timezone).list({ limit: 100 }).reverse()
  } finally {
    state.close()
  }
}

function memoryFiles(workspace: FleetWorldWorkspace): string[] {
  return readdirSync(workspace.paths.memory).sort()
}

describe.skipIf(SKIP_REDIS)('fleet recovery', () => {
  let redis: RedisServer
  beforeAll(async () => {
    redis = await startRedisServer({ persist: true })
  })
  beforeEach(async () => {
    await redis.flush()
  })
  afterAll(async () => {
    await redis?.stop()
  })

  it('a worker killed (-9) mid-dream: another worker retries the job, the first run is lost, no note is lost', async () => {
    // The first model request hangs, so the first worker is certainly mid-dream (lock held, run running).
    const fake = await startScriptedServer([
      anthropicReply.hang(),
      ...Array(20).fill(anthropicReply.text('Done.')),
    ])
    try {
      const world = await makeFleetWorld(1, redis.url, {
        settings: () => ({
          dream: { provider: 'anthropic' },
          providers: { anthropic: { baseUrl: fake.url, maxRetries: 0 } },
        }),
      })
      const [ws] = world.workspaces as [FleetWorldWorkspace]
      const filesBefore = memoryFiles(ws)
      const env = { ANTHROPIC_API_KEY: 'sk-test' }
      const first = startWorkerProcess(world, ['--claim-ms', '2000'], env)
      const trigger = await runCli([
        'fleet',
        '--fleet',
        world.file,
        'trigger',
        ws.id,
        '--days',
        '2',
        '--json',
      ])
      const { jobId } = JSON.parse(trigger.stdout) as { jobId: string }
      await waitFor(
        'the first worker to reach the model',
        async () => (fake.requests.length > 0 ? true : undefined),
        60_000,
      )
      const [running] = runsOf(ws)
      expect(running?.status).toBe('running')
      expect(existsSync(ws.paths.lockFile)).toBe(true)

      const second = startWorkerProcess(world, ['--claim-ms', '2000'], env)
      first.child.kill('SIGKILL')
      await first.exited

      const queue = await openDreamQueue(redis.url)
      try {
        // State first, then the job: a job read before it completed keeps a null return value even once
        // getState() says 'completed' (the flake "job's return value null" under load).
        const job = await waitFor('the job to complete on the second worker', async () =>
          (await queue.getJobState(jobId)) === 'completed' ? queue.getJob(jobId) : undefined,
        )
        const runs = runsOf(ws)
        expect(
          runs.map((run) => run.status),
          second.output(),
        ).toEqual(['lost', 'degraded'])
        expect(runs[0]?.id).toBe(running?.id)
        expect(runs[0]?.reason).toMatch(/stopped before it finished/)
        expect(job?.returnvalue).toMatchObject({ runId: runs[1]?.id, status: 'degraded' })
      } finally {
        await queue.close()
      }
      expect(memoryFiles(ws)).toEqual(filesBefore)
      expect(existsSync(ws.paths.lockFile)).toBe(false)
      // The lost run's backup is there to restore from, should anything have gone wrong.
      expect(
        readdirSync(ws.paths.backups).filter((name) => name.endsWith('.zip')).length,
      ).toBeGreaterThanOrEqual(2)
      second.child.kill('SIGTERM')
      await second.exited
    } finally {
      await fake.close()
    }
  }, 180_000)

  it('Redis restarted mid-run: the workers reconnect and every workspace still dreams once', async () => {
    // Each dream waits 700 ms on the model, so six of them on one worker are still running when Redis restarts.
    const slow: FakeStep = (request) => ({
      ...(anthropicReply.text('Done.') as (r: RecordedRequest) => FakeResponse)(request),
      delayMs: 700,
    })
    const fake = await startScriptedServer(Array(30).fill(slow))
    try {
      const world = await makeFleetWorld(6, redis.url, {
        settings: () => ({
          dream: { provider: 'anthropic' },
          providers: { anthropic: { baseUrl: fake.url, maxRetries: 0 } },
          autoDream: { retryDelaysMinutes: [] },
        }),
      })
      const tick = await runCli(['fleet', '--fleet', world.file, 'tick', '--json'])
      const jobIds = (JSON.parse(tick.stdout) as { jobId: string }[]).map((r) => r.jobId)
      const worker = startWorkerProcess(world, ['--claim-ms', '3000'], { ANTHROPIC_API_KEY: 'sk-test' })
      const queue = await openDreamQueue(redis.url, { retry: true })
      const completed = async () => {
        const states = await Promise.all(jobIds.map(async (id) => (await queue.getJob(id))?.getState()))
        return states.filter((state) => state === 'completed').length
      }
      try {
        await waitFor('the first dream to complete', async () => ((await completed()) > 0 ? true : undefined))
        expect(await completed()).toBeLessThan(6)
        await redis.restart()
        await waitFor('all six jobs to complete after the restart', async () =>
          (await completed()) === 6 ? true : undefined,
        )
      } finally {
        await queue.close()
      }
      for (const ws of world.workspaces) {
        // The model did no work, so each dream ends degraded (offline engine); a re-delivered job is skipped.
        const dreamed = runsOf(ws).filter((run) => run.status === 'degraded')
        expect(dreamed, `${ws.id}\n${worker.output()}`).toHaveLength(1)
      }
      worker.child.kill('SIGTERM')
      await worker.exited
    } finally {
      await fake.close()
    }
  }, 240_000)
})
