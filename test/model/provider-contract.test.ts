// The contract every real provider keeps, run against each fake API on its own wire format: the same tools and
// results, the same budgets, the same usage accounting, and a turn that ends early keeps what it used. A new
// contract point goes here, so both providers are held to it at once.
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DreamlaneError } from '../../src/errors.js'
import { partialTurnOf, TurnFailedError } from '../../src/model/provider.js'
import { slowed, type FakeStep } from '../helpers/fake-anthropic.js'
import { FAKE_APIS, type FakeModelApi, type ReplyUsage } from '../helpers/fake-model-api.js'
import {
  BUDGET,
  makeProviderWorld,
  neverAborted,
  recordingSleep,
  recordRetries,
  SYSTEM_PROMPT,
  turnInput,
} from './provider-world.js'

async function setup(
  api: FakeModelApi,
  script: FakeStep[],
  retry: { maxRetries?: number } = {},
  request: { requestTimeoutMs?: number } = {},
) {
  const fake = await api.start(script)
  onTestFinished(() => fake.close())
  const { sleep, waits } = recordingSleep()
  const { onRetry, retries } = recordRetries()
  const provider = api.provider(fake, { sleep, onRetry, random: () => 0.5, retry, ...request })
  const world = await makeProviderWorld()
  return { fake, provider, world, waits, retries }
}

const readUser = { name: 'read_file', input: { path: 'notes/memory/user.md' } }
const FIRST: ReplyUsage = { fresh: 1200, output: 40, cacheWrite: 5000 }
const SECOND: ReplyUsage = { fresh: 300, output: 35, cacheWrite: 120, cacheRead: 5000 }
const THIRD: ReplyUsage = { fresh: 90, output: 12, cacheRead: 5120 }

describe.each(FAKE_APIS)('provider contract: tools and results ($name)', (api) => {
  it('offers exactly the ToolSet specs: names, descriptions and input schemas', async () => {
    const { fake, provider, world } = await setup(api, [api.text('nothing to do')])
    await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(api.specsOf(fake.requests[0]!)).toEqual(world.tools.specs())
  })

  it('opens with the system prompt and the run message, verbatim', async () => {
    const { fake, provider, world } = await setup(api, [api.text('nothing to do')])
    await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(api.openingOf(fake.requests[0]!)).toEqual({ system: SYSTEM_PROMPT, prompt: turnInput().prompt })
  })

  it('runs a multi-step loop through the real tools and sends each result back under its call', async () => {
    const edit = {
      name: 'edit_file',
      input: {
        path: 'notes/memory/user.md',
        old_string: '- Name: Alex\n',
        new_string: '- Name: Alex\n- Lives in Porto\n',
      },
    }
    const { fake, provider, world } = await setup(api, [
      api.tools([readUser]),
      api.tools([edit, { name: 'list_files', input: { path: 'notes/memory' } }]),
      api.text('Updated user.md.'),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())

    expect(result).toMatchObject({ stop: 'end', text: 'Updated user.md.' })
    expect(world.read('notes/memory/user.md')).toContain('- Lives in Porto\n')
    expect(fake.requests).toHaveLength(3)
    expect(api.resultsOf(fake.requests[1]!)).toEqual([
      { id: expect.any(String), content: '# User\n\n- Name: Alex\n', isError: false },
    ])
    const second = api.resultsOf(fake.requests[2]!)
    expect(second.map((r) => r.isError)).toEqual([false, false])
    expect(new Set(second.map((r) => r.id)).size).toBe(2)
    expect(result.transcript.map((entry) => entry.kind)).toEqual([
      'text',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'text',
    ])
    expect(world.tools.changedFiles()).toHaveLength(1)
  })

  it('sends refused, unknown and invalid calls back as errors and carries on', async () => {
    const { fake, provider, world } = await setup(api, [
      api.tools([
        { name: 'write_file', input: { path: '../outside.md', content: 'x' } },
        { name: 'delete_everything', input: {} },
        { name: 'read_file', input: { file: 'notes/memory/user.md' } },
      ]),
      api.text('Some calls were refused.'),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())

    expect(result).toMatchObject({ stop: 'end', text: 'Some calls were refused.' })
    const results = api.resultsOf(fake.requests[1]!)
    expect(results.map((r) => r.isError)).toEqual([true, true, true])
    expect(results[1]?.content).toContain('there is no tool "delete_everything"')
    expect(results[2]?.content).toContain('invalid input for read_file')
    expect(world.tools.calls().map((call) => call.code)).toEqual([
      'PATH_OUT_OF_SCOPE',
      'UNKNOWN_TOOL',
      'TOOL_INPUT_INVALID',
    ])
  })
})

describe.each(FAKE_APIS)('provider contract: budgets ($name)', (api) => {
  it('stops at the tool-call limit without running the extra call', async () => {
    const { fake, provider, world } = await setup(api, [
      api.tools([readUser, readUser]),
      api.tools([readUser, readUser]),
      api.text('never'),
    ])
    const budget = { ...BUDGET, maxToolCalls: 3 }
    const result = await provider.runTurn(turnInput({ budget }), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'limit', limit: 'tool_calls' })
    expect(world.tools.calls()).toHaveLength(3)
    expect(fake.requests).toHaveLength(2)
  })

  it('adds a budget line to each tool result once under a quarter of the tool calls is left', async () => {
    const { fake, provider, world } = await setup(api, [
      api.tools([readUser, readUser, readUser, readUser]),
      api.text('done'),
    ])
    await provider.runTurn(turnInput({ budget: { ...BUDGET, maxToolCalls: 5 } }), world.tools, neverAborted())
    const results = api.resultsOf(fake.requests[1]!).map((result) => result.content)
    expect(results.slice(0, 3).every((content) => !content.includes('[budget low'))).toBe(true)
    expect(results[3]).toMatch(
      /^# User\n\n- Name: Alex\n\n\[budget low: 1 of 5 tool calls, [\d,]+ of 400,000 tokens, [\d,]+ of 8,000 output/,
    )
    expect(results[3]).toMatch(/finish the open days \(finish_day\)/)
  })

  it('caps max_tokens by the output budget and stops once it is spent', async () => {
    const { fake, provider, world } = await setup(api, [
      api.tools([readUser], { output: 950 }),
      api.text('never'),
    ])
    const budget = { ...BUDGET, maxOutputTokens: 1000 }
    const result = await provider.runTurn(turnInput({ budget }), world.tools, neverAborted())
    expect(api.maxTokensOf(fake.requests[0]!)).toBe(1000)
    expect(result).toMatchObject({ stop: 'limit', limit: 'tokens' })
    expect(fake.requests).toHaveLength(1)
  })

  it('sends no request whose estimated size would pass the total token budget', async () => {
    const { fake, provider, world } = await setup(api, [api.text('never')])
    const budget = { ...BUDGET, maxTotalTokens: 1000 }
    const result = await provider.runTurn(turnInput({ budget }), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'limit', limit: 'tokens' })
    expect(fake.requests).toHaveLength(0)
  })

  it('weighs cache reads at a tenth against the total budget: the same tokens fresh would stop the turn', async () => {
    const budget = { ...BUDGET, maxTotalTokens: 60_000 }
    const cached = await setup(api, [
      api.tools([readUser], { fresh: 500, cacheRead: 200_000 }),
      api.text('done'),
    ])
    const fromCache = await cached.provider.runTurn(turnInput({ budget }), cached.world.tools, neverAborted())
    expect(fromCache).toMatchObject({ stop: 'end', text: 'done' })

    const fresh = await setup(api, [api.tools([readUser], { fresh: 200_500 }), api.text('never')])
    const uncached = await fresh.provider.runTurn(turnInput({ budget }), fresh.world.tools, neverAborted())
    expect(uncached).toMatchObject({ stop: 'limit', limit: 'tokens' })
    expect(fresh.fake.requests).toHaveLength(1)
  })

  it('a reply cut once the output budget is spent is a token limit, not the model ending', async () => {
    const { provider, world } = await setup(api, [api.text('partial', { output: 500 }, true)])
    const budget = { ...BUDGET, maxOutputTokens: 500 }
    const result = await provider.runTurn(turnInput({ budget }), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'limit', limit: 'tokens', text: 'partial' })
  })

  it('ends on a text reply cut by the per-request cap while budget remains', async () => {
    const { provider, world } = await setup(api, [api.text('I was cut off mid-sent', {}, true)])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'end', text: 'I was cut off mid-sent' })
  })
})

describe.each(FAKE_APIS)('provider contract: usage, and a turn that ends early ($name)', (api) => {
  it('sums fresh input, cache reads, cache writes and output exactly', async () => {
    const { provider, world } = await setup(api, [
      api.tools([readUser], FIRST),
      api.tools([readUser], SECOND),
      api.text('done', THIRD),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result.usage).toEqual(api.usageOf([FIRST, SECOND, THIRD]))
    expect(result.usage.cacheReadTokens).toBe(10_120)
  })

  it('a cancelled turn: stop "aborted", with the usage and transcript of the requests answered', async () => {
    const controller = new AbortController()
    const { fake, provider, world } = await setup(api, [
      api.tools([readUser], FIRST),
      api.tools([readUser], SECOND),
      () => {
        controller.abort()
        return api.hang()
      },
    ])
    const result = await provider.runTurn(turnInput(), world.tools, controller.signal)
    expect(result.stop).toBe('aborted')
    expect(fake.requests).toHaveLength(3)
    expect(result.usage).toEqual(api.usageOf([FIRST, SECOND]))
    expect(result.transcript.filter((entry) => entry.kind === 'tool_call')).toHaveLength(2)
  })

  it('a turn past its timeout: limit "timeout", with what it used', async () => {
    const { provider, world } = await setup(api, [api.tools([readUser], FIRST), api.hang()])
    const started = performance.now()
    const budget = { ...BUDGET, timeoutMs: 300 }
    const result = await provider.runTurn(turnInput({ budget }), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'limit', limit: 'timeout' })
    expect(result.usage).toEqual(api.usageOf([FIRST]))
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('a request that fails after retries throws PROVIDER_FAILED carrying the turn so far', async () => {
    const { fake, provider, world, waits } = await setup(
      api,
      [api.tools([readUser], FIRST), api.error(500), api.error(500), api.error(500)],
      { maxRetries: 2 },
    )
    const error = await provider.runTurn(turnInput(), world.tools, neverAborted()).catch((e: unknown) => e)

    expect(error).toBeInstanceOf(TurnFailedError)
    expect((error as DreamlaneError).code).toBe('PROVIDER_FAILED')
    expect((error as Error).message).toMatch(/after 3 attempt\(s\): HTTP 500/)
    expect(fake.requests).toHaveLength(4)
    expect(waits).toEqual([750, 1500])
    const partial = partialTurnOf(error)
    expect(partial?.usage).toEqual(api.usageOf([FIRST]))
    expect(partial?.transcript.map((entry) => entry.kind)).toEqual(['text', 'tool_call', 'tool_result'])
  })

  it('retries overload (529) and a rate limit with retry-after (429), then succeeds', async () => {
    const { fake, provider, world, waits, retries } = await setup(api, [
      api.error(529),
      api.error(429, { 'retry-after': '1' }),
      api.text('done after retries', THIRD),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'end', text: 'done after retries' })
    expect(fake.requests).toHaveLength(3)
    // Backoff with random 0.5: a 1000 ms ceiling gives 500 + 250; then the server's 1 s.
    expect(waits).toEqual([750, 1000])
    expect(retries.map((retry) => retry.reason.slice(0, 8))).toEqual(['HTTP 529', 'HTTP 429'])
    expect(result.usage).toEqual(api.usageOf([THIRD]))
  })
})

/** Makes the process's own fetch (Node's, undici inside) give up on headers and body after `ms`, for this test. */
function shortenDefaultFetchWaits(ms: number): void {
  const before = getGlobalDispatcher()
  const short = new Agent({ headersTimeout: ms, bodyTimeout: ms })
  setGlobalDispatcher(short)
  onTestFinished(async () => {
    setGlobalDispatcher(before)
    await short.close()
  })
}

describe.each(FAKE_APIS)(
  'provider contract: requestTimeoutMs, and no other wait, ends a request ($name)',
  (api) => {
    const TIMEOUT_MS = 500
    const noRetry = { maxRetries: 0 }
    const timedOut =
      /^model request failed after 1 attempt\(s\): the request timed out after 500 ms \(requestTimeoutMs\)$/

    it('headers that do not come in time: a timeout at requestTimeoutMs, keeping the turn so far', async () => {
      const { fake, provider, world } = await setup(
        api,
        [api.tools([readUser], FIRST), slowed(api.text('too late'), { delayMs: 3_000 })],
        noRetry,
        { requestTimeoutMs: TIMEOUT_MS },
      )
      const started = performance.now()
      const error = await provider.runTurn(turnInput(), world.tools, neverAborted()).catch((e: unknown) => e)
      const elapsed = performance.now() - started

      expect(error).toBeInstanceOf(TurnFailedError)
      expect((error as DreamlaneError).code).toBe('PROVIDER_FAILED')
      expect((error as Error).message).toMatch(timedOut)
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS)
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 1_000)
      expect(fake.requests).toHaveLength(2)
      const partial = partialTurnOf(error)
      expect(partial?.usage).toEqual(api.usageOf([FIRST]))
      expect(partial?.transcript.map((entry) => entry.kind)).toEqual(['text', 'tool_call', 'tool_result'])
    })

    it('a body that stalls after the headers: a timeout at requestTimeoutMs as well', async () => {
      const { provider, world } = await setup(
        api,
        [slowed(api.text('slow body'), { bodyDelayMs: 3_000 })],
        noRetry,
        { requestTimeoutMs: TIMEOUT_MS },
      )
      const started = performance.now()
      const error = await provider.runTurn(turnInput(), world.tools, neverAborted()).catch((e: unknown) => e)
      const elapsed = performance.now() - started

      expect((error as Error).message).toMatch(timedOut)
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS)
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 1_000)
    })

    it('a timed-out request is retried, and the retry is told why', async () => {
      const { fake, provider, world, retries } = await setup(
        api,
        [slowed(api.text('too late'), { delayMs: 3_000 }), api.text('in time')],
        { maxRetries: 1 },
        { requestTimeoutMs: TIMEOUT_MS },
      )
      const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
      expect(result).toMatchObject({ stop: 'end', text: 'in time' })
      expect(fake.requests).toHaveLength(2)
      expect(retries.map((retry) => retry.reason)).toEqual([
        'the request timed out after 500 ms (requestTimeoutMs)',
      ])
    })

    it("waits for headers and body longer than the process fetch's own limit when requestTimeoutMs allows", async () => {
      // A small stand-in for Node's hidden 300 s: the provider must not be bound by it.
      shortenDefaultFetchWaits(100)
      const { provider, world } = await setup(
        api,
        [
          slowed(api.tools([readUser], FIRST), { delayMs: 1_200 }),
          slowed(api.text('slow but in time', THIRD), { bodyDelayMs: 1_200 }),
        ],
        noRetry,
        { requestTimeoutMs: 10_000 },
      )
      const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
      expect(result).toMatchObject({ stop: 'end', text: 'slow but in time' })
      expect(result.usage).toEqual(api.usageOf([FIRST, THIRD]))
    })
  },
)
