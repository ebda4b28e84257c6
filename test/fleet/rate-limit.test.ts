// The model API's budget across the fleet on real Redis: a sliding window of requests, and a 429's pause.
import { describe, expect, it } from 'vitest'
import { openDreamQueue } from '../../src/fleet/queue.js'
import { runCli } from '../helpers/cli.js'
import {
  anthropicReply,
  startScriptedServer,
  type FakeResponse,
  type FakeStep,
  type RecordedRequest,
} from '../helpers/fake-anthropic.js'
import { makeFleetWorld, startWorkerProcess, waitFor, type FleetWorld } from '../helpers/fleet-world.js'
import { SKIP_REDIS, useRedisServer } from '../helpers/redis-server.js'

const done = anthropicReply.text('Done.') as (request: RecordedRequest) => FakeResponse

/** A fake model API that notes when each request arrived. */
async function startTimedApi(answer: (index: number, request: RecordedRequest) => FakeResponse) {
  const arrivals: number[] = []
  const step: FakeStep = (request) => {
    arrivals.push(Date.now())
    return answer(arrivals.length - 1, request)
  }
  const server = await startScriptedServer(Array(200).fill(step))
  return { ...server, arrivals }
}

/** Each workspace dreams with the fake API; a degraded auto dream is final (no retries) to keep counts exact. */
function apiSettings(url: string) {
  return () => ({
    dream: { provider: 'anthropic' as const },
    providers: { anthropic: { baseUrl: url, maxRetries: 2 } },
    autoDream: { retryDelaysMinutes: [] },
  })
}

async function waitForAllCompleted(redisUrl: string, jobIds: string[]): Promise<void> {
  const queue = await openDreamQueue(redisUrl)
  try {
    await waitFor(`${jobIds.length} jobs to complete`, async () => {
      const states = await Promise.all(jobIds.map(async (id) => (await queue.getJob(id))?.getState()))
      return states.every((state) => state === 'completed') ? true : undefined
    })
  } finally {
    await queue.close()
  }
}

async function tick(world: FleetWorld): Promise<string[]> {
  const result = await runCli(['fleet', '--fleet', world.file, 'tick', '--json'])
  return (JSON.parse(result.stdout) as { jobId: string }[]).map((r) => r.jobId)
}

describe.skipIf(SKIP_REDIS)('the fleet-wide model rate limit', () => {
  const redis = useRedisServer()

  it('admits at most R requests in any window across all workers', async () => {
    const api = await startTimedApi((_i, request) => done(request))
    try {
      const world = await makeFleetWorld(7, redis().url, { settings: apiSettings(api.url) })
      const { writeFileSync } = await import('node:fs')
      writeFileSync(
        world.file,
        JSON.stringify({ globs: ['ws-*'], redis: redis().url, rateLimit: { requests: 3, perSeconds: 4 } }),
      )
      const jobIds = await tick(world)
      const env = { ANTHROPIC_API_KEY: 'sk-test' }
      for (let i = 0; i < 3; i++) startWorkerProcess(world, [], env)
      await waitForAllCompleted(redis().url, jobIds)
      expect(api.arrivals).toHaveLength(7)
      const perWindow = api.arrivals.map(
        (start) => api.arrivals.filter((t) => t >= start && t < start + 4_000).length,
      )
      expect(
        Math.max(...perWindow),
        JSON.stringify(api.arrivals.map((t) => t - (api.arrivals[0] as number))),
      ).toBeLessThanOrEqual(3)
      // Seven requests at three per four seconds cannot take less than eight seconds (plus the send margin).
      expect((api.arrivals.at(-1) as number) - (api.arrivals[0] as number)).toBeGreaterThanOrEqual(7_800)
    } finally {
      await api.close()
    }
  }, 180_000)

  it("pauses the whole fleet for a 429's retry-after", async () => {
    let answered429At = 0
    const api = await startTimedApi((index, request) => {
      if (index > 0) return done(request)
      answered429At = Date.now()
      return anthropicReply.error(429, 'rate_limit_error', { 'retry-after': '3' })
    })
    try {
      const world = await makeFleetWorld(4, redis().url, { settings: apiSettings(api.url) })
      const env = { ANTHROPIC_API_KEY: 'sk-test' }
      for (let i = 0; i < 2; i++) startWorkerProcess(world, ['--concurrency', '2'], env)
      // One workspace first: its first request is answered 429; then the rest of the fleet wants to dream.
      const first = await runCli([
        'fleet',
        '--fleet',
        world.file,
        'trigger',
        'ws-00',
        '--days',
        '2',
        '--json',
      ])
      await waitFor('the 429', async () => (answered429At ? true : undefined), 60_000)
      const jobIds = [(JSON.parse(first.stdout) as { jobId: string }).jobId, ...(await tick(world))]
      await waitForAllCompleted(redis().url, jobIds)
      const later = api.arrivals.slice(1)
      expect(later.length).toBeGreaterThanOrEqual(5)
      for (const at of later) expect(at - answered429At).toBeGreaterThanOrEqual(2_900)
    } finally {
      await api.close()
    }
  }, 180_000)
})
