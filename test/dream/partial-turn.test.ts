// A model turn that ends early (the provider fails after retries, a request or the turn times out, the run is
// cancelled) keeps its requests, usage, tool calls and transcript in the run record, on both real providers, and
// its step is not recorded as a success.
import { describe, expect, it, onTestFinished } from 'vitest'
import type { ResolvedConfig } from '../../src/config/schema.js'
import type { RunRecord } from '../../src/dream/types.js'
import { makeDreamWorld } from '../helpers/dream-world.js'
import { slowed, type FakeStep } from '../helpers/fake-anthropic.js'
import { FAKE_APIS, type FakeModelApi, type ReplyUsage } from '../helpers/fake-model-api.js'

const readUser = { name: 'read_file', input: { path: 'notes/memory/user.md' } }
const listDaily = { name: 'list_files', input: { path: 'notes/daily' } }
const FIRST: ReplyUsage = { fresh: 1200, output: 40, cacheWrite: 3000 }
const SECOND: ReplyUsage = { fresh: 150, output: 25, cacheRead: 3000 }

async function dreamAgainst(
  api: FakeModelApi,
  script: (stop: () => void) => FakeStep[],
  dream: Partial<ResolvedConfig['dream']> = {},
  request: { requestTimeoutMs?: number } = {},
) {
  const world = await makeDreamWorld()
  let shutdown: Promise<void> | null = null
  const server = await api.start(script(() => (shutdown ??= dreamlane.shutdown())))
  onTestFinished(() => server.close())
  const dreamlane = world.open({
    config: { ...world.config, dream: { ...world.config.dream, ...dream } },
    provider: api.provider(server, { retry: { maxRetries: 0 }, ...request }),
  })
  const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
  await (shutdown ?? dreamlane.close())
  return { run, server }
}

/** The model's own calls and transcript entries: those before the fallback's. */
function modelCallsOf(run: RunRecord): string[] {
  return run.toolCalls.slice(0, 3).map((call) => call.name)
}

function transcriptCallsOf(run: RunRecord): number {
  return run.transcript.filter((entry) => entry.kind === 'tool_call').length
}

describe.each(FAKE_APIS)('a model turn that ends early keeps what it used ($name)', (api) => {
  it('a provider error after retries: the requests answered, their tokens and the tool calls stay', async () => {
    const { run, server } = await dreamAgainst(api, () => [
      api.tools([readUser, listDaily], FIRST),
      api.tools([readUser], SECOND),
      api.error(500),
    ])
    expect(server.requests).toHaveLength(3)
    expect(run.status).toBe('degraded')
    expect(run.reason).toMatch(new RegExp(`the ${api.name} provider failed: .*HTTP 500`))
    expect(run.usage).toEqual(api.usageOf([FIRST, SECOND]))
    expect(modelCallsOf(run)).toEqual(['read_file', 'list_files', 'read_file'])
    // The fallback's calls come after the model's, in the record and in the transcript.
    expect(run.toolCalls.length).toBeGreaterThan(3)
    expect(transcriptCallsOf(run)).toBeGreaterThan(3)
    const fresh = api.usageOf([FIRST, SECOND]).inputTokens
    const model = run.steps.find((s) => s.name === 'model')
    expect(model?.detail).toContain(`3 tool call(s), ${fresh} fresh input, 3000 cache read`)
    // The turn returned a failure rather than throwing (so the fallback could run): it is no success all the same.
    expect(model?.ok).toBe(false)
  }, 30_000)

  it('a request past requestTimeoutMs: the model step fails, keeping the requests, tokens and tool calls before it', async () => {
    const { run, server } = await dreamAgainst(
      api,
      () => [
        api.tools([readUser, listDaily], FIRST),
        api.tools([readUser], SECOND),
        slowed(api.text('too late'), { delayMs: 3_000 }),
      ],
      {},
      { requestTimeoutMs: 400 },
    )
    expect(server.requests).toHaveLength(3)
    expect(run.status).toBe('degraded')
    expect(run.reason).toContain(
      `the ${api.name} provider failed: model request failed after 1 attempt(s): the request timed out after 400 ms (requestTimeoutMs)`,
    )
    expect(run.usage).toEqual(api.usageOf([FIRST, SECOND]))
    expect(modelCallsOf(run)).toEqual(['read_file', 'list_files', 'read_file'])
    const model = run.steps.find((s) => s.name === 'model')
    expect(model?.ok).toBe(false)
    expect(model?.detail).toMatch(/timed out after 400 ms .*3 tool call\(s\), .* in 2 request\(s\)$/)
    expect(run.steps.find((s) => s.name === 'fallback')?.ok).toBe(true)
  }, 30_000)

  it('a cancelled run: status cancelled, with the requests, tokens and tool calls made before it', async () => {
    const { run } = await dreamAgainst(api, (stop) => [
      api.tools([readUser, listDaily], FIRST),
      api.tools([readUser], SECOND),
      () => {
        stop()
        return api.hang()
      },
    ])
    expect(run.status).toBe('cancelled')
    expect(run.usage).toEqual(api.usageOf([FIRST, SECOND]))
    expect(run.toolCalls.map((call) => call.name)).toEqual(['read_file', 'list_files', 'read_file'])
    expect(transcriptCallsOf(run)).toBe(3)
    expect(run.provider).toBe(api.name)
  }, 30_000)

  it('a turn past its timeout: the fallback runs, and the record keeps the model part too', async () => {
    const { run } = await dreamAgainst(
      api,
      () => [api.tools([readUser, listDaily], FIRST), api.tools([readUser], SECOND), api.hang()],
      { turnTimeoutMs: 1_000 },
    )
    expect(run.status).toBe('degraded')
    expect(run.reason).toMatch(/timed? ?out|timeout/)
    expect(run.usage).toEqual(api.usageOf([FIRST, SECOND]))
    expect(modelCallsOf(run)).toEqual(['read_file', 'list_files', 'read_file'])
    expect(run.steps.find((s) => s.name === 'model')?.ok).toBe(false)
  }, 30_000)
})
