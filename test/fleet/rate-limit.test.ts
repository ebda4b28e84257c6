// The model API's budget across the fleet on real Redis: a sliding window of requests, and a 429's pause.
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import { fleetModelLimiter } from '../../src/fleet/model-rate-limit.js'
import { openDreamQueue } from '../../src/fleet/queue.js'
import { EMPTY_USAGE } from '../../src/model/provider.js'
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
function apiSettings(url: string, maxTokensPerRequest = 4_096) {
  return () => ({
    dream: { provider: 'anthropic' as const },
    providers: { anthropic: { baseUrl: url, maxRetries: 2, maxTokensPerRequest } },
    autoDream: { retryDelaysMinutes: [] },
  })
}

function writeRegistry(world: FleetWorld, redisUrl: string, rateLimit: object): void {
  writeFileSync(world.file, JSON.stringify({ globs: ['ws-*'], redis: redisUrl, rateLimit }))
}

/** The most any `windowMs` starting at an arrival holds, summing `weight` of the arrivals inside it. */
function busiestWindow(arrivals: number[], weights: number[], windowMs: number): number {
  return Math.max(
    ...arrivals.map((start) =>
      arrivals.reduce(
        (sum, at, i) => (at >= start && at < start + windowMs ? sum + (weights[i] ?? 0) : sum),
        0,
      ),
    ),
  )
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
      writeRegistry(world, redis().url, { requests: 3, perSeconds: 4 })
      const jobIds = await tick(world)
      const env = { ANTHROPIC_API_KEY: 'sk-test' }
      for (let i = 0; i < 3; i++) startWorkerProcess(world, [], env)
      await waitForAllCompleted(redis().url, jobIds)
      expect(api.arrivals).toHaveLength(7)
      expect(
        busiestWindow(api.arrivals, Array(7).fill(1), 4_000),
        JSON.stringify(api.arrivals.map((t) => t - (api.arrivals[0] as number))),
      ).toBeLessThanOrEqual(3)
      // Seven requests at three per four seconds cannot take less than eight seconds (plus the send margin).
      expect((api.arrivals.at(-1) as number) - (api.arrivals[0] as number)).toBeGreaterThanOrEqual(7_800)
    } finally {
      await api.close()
    }
  }, 180_000)

  it('keeps the tokens the API reports within T in any window across all workers', async () => {
    const TOKENS = 8_000
    const OUTPUT = 120
    // The fake bills like the Messages API with a warm cache: most of the prompt read from the cache (a tenth
    // counts), the rest fresh, and OUTPUT tokens of answer. The prompt's size is its chars/4.
    const billed: number[] = []
    const api = await startTimedApi((_i, request) => {
      const prompt = Math.ceil(request.raw.length / 4)
      const usage = { input: Math.ceil(prompt * 0.3), cacheRead: Math.floor(prompt * 0.7), output: OUTPUT }
      billed.push(usage.input + Math.ceil(usage.cacheRead * 0.1) + usage.output)
      return (anthropicReply.text('Done.', usage) as (r: RecordedRequest) => FakeResponse)(request)
    })
    try {
      // 300 output tokens at most per request keeps each reservation (prompt + max_tokens) near what it bills.
      const world = await makeFleetWorld(10, redis().url, { settings: apiSettings(api.url, 300) })
      writeRegistry(world, redis().url, { tokens: TOKENS, perSeconds: 8 })
      const jobIds = await tick(world)
      const env = { ANTHROPIC_API_KEY: 'sk-test' }
      for (let i = 0; i < 3; i++) startWorkerProcess(world, ['--concurrency', '2'], env)
      await waitForAllCompleted(redis().url, jobIds)
      expect(api.arrivals).toHaveLength(10)
      const timeline = JSON.stringify(
        api.arrivals.map((t, i) => [t - (api.arrivals[0] as number), billed[i]]),
      )
      // The budget must hold two requests' reservations but not all ten requests, or this proves nothing.
      const prompt = Math.ceil((api.requests[0]?.raw.length ?? 0) / 4)
      expect(2 * (prompt + 300), timeline).toBeLessThanOrEqual(TOKENS)
      const total = billed.reduce((sum, tokens) => sum + tokens, 0)
      expect(total, timeline).toBeGreaterThan(TOKENS)
      expect(busiestWindow(api.arrivals, billed, 8_000), timeline).toBeLessThanOrEqual(TOKENS)
      // What was billed needs at least ceil(total / T) windows: the later requests had to wait for them.
      const windowsNeeded = Math.ceil(total / TOKENS)
      const span = (api.arrivals.at(-1) as number) - (api.arrivals[0] as number)
      expect(span, timeline).toBeGreaterThanOrEqual((windowsNeeded - 1) * 8_000)
    } finally {
      await api.close()
    }
  }, 180_000)

  it('lets a request larger than the budget through an empty window, and takes back what a failed one reserved', async () => {
    const client = new Redis(redis().url)
    const waits: number[] = []
    const limiter = fleetModelLimiter(
      client,
      { tokens: 1_000, perSeconds: 30 },
      {
        sleep: async (ms) => {
          waits.push(ms)
          await new Promise((resolve) => setTimeout(resolve, 10))
        },
      },
    )
    const meter = (reservedTokens: number, billed: number) => ({
      reservedTokens,
      usageOf: () => ({ ...EMPTY_USAGE, inputTokens: billed, requests: 1 }),
    })
    try {
      // Alone in the window, 5,000 reserved against a budget of 1,000 still goes (it would never fit).
      await limiter.gate(async () => 'big', meter(5_000, 600))
      expect(waits).toEqual([])
      // Its 600 billed tokens leave 400: a request reserving 500 has to wait for the window.
      const blocked = limiter.gate(async () => 'waits', meter(500, 100))
      await waitFor('the second request to wait', async () => (waits.length > 0 ? true : undefined))
      await client.flushall()
      await blocked
      // A refused request's reservation is handed back: the next one fits at once.
      await expect(limiter.gate(async () => Promise.reject(new Error('429')), meter(900, 0))).rejects.toThrow(
        '429',
      )
      waits.length = 0
      await limiter.gate(async () => 'fits', meter(900, 900))
      expect(waits).toEqual([])
    } finally {
      client.disconnect()
    }
  })

  it("pauses the whole fleet for a 429's retry-after", async () => {
    let answered429At = 0
    const api = await startTimedApi((index, request) => {
      if (index > 0) return done(request)
      answered429At = Date.now()
      return anthropicReply.error(429, 'rate_limit_error', { 'retry-after': '3' })
    })
    try {
      const world = await makeFleetWorld(4, redis().url, { settings: apiSettings(api.url) })
      // With a token budget too, whose reservations a refused request hands back.
      writeRegistry(world, redis().url, { tokens: 1_000_000 })
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
