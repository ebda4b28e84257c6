// The Anthropic provider against a local fake Messages API: tool loop, caching, retries, limits, timeouts, usage.
import { describe, expect, it, onTestFinished } from 'vitest'
import { DreamlaneError } from '../../src/errors.js'
import { createAnthropicProvider, type AnthropicProviderOptions } from '../../src/model/anthropic.js'
import {
  anthropicReply as reply,
  startScriptedServer,
  toolResultsOf,
  type FakeStep,
} from '../helpers/fake-anthropic.js'
import {
  BUDGET,
  makeProviderWorld,
  neverAborted,
  recordingSleep,
  recordRetries,
  SYSTEM_PROMPT,
  turnInput,
} from './provider-world.js'

async function setup(script: FakeStep[], options: Partial<AnthropicProviderOptions> = {}) {
  const fake = await startScriptedServer(script)
  onTestFinished(() => fake.close())
  const { sleep, waits } = recordingSleep()
  const { onRetry, retries } = recordRetries()
  const provider = createAnthropicProvider({
    apiKey: 'test-key',
    baseUrl: fake.url,
    model: 'claude-default',
    sleep,
    onRetry,
    random: () => 0.5,
    ...options,
  })
  const world = await makeProviderWorld()
  return { fake, provider, world, waits, retries }
}

describe('anthropic provider: the tool loop', () => {
  it('runs a multi-step loop that edits notes through the real tool layer', async () => {
    const { fake, provider, world } = await setup([
      reply.tools([{ name: 'read_file', input: { path: 'notes/memory/user.md' } }]),
      reply.tools([
        {
          name: 'edit_file',
          input: {
            path: 'notes/memory/user.md',
            old_string: '- Name: Alex\n',
            new_string: '- Name: Alex\n- Lives in Porto (since 2026-10)\n',
          },
        },
        {
          name: 'write_file',
          input: {
            path: 'notes/memory/project.md',
            content: '# Projects\n\n- Atlas: Postgres chosen 2026-11-23\n',
          },
        },
      ]),
      reply.text('Consolidated 2 facts.'),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())

    expect(result).toMatchObject({ stop: 'end', text: 'Consolidated 2 facts.' })
    expect(world.read('notes/memory/user.md')).toContain('- Lives in Porto (since 2026-10)')
    expect(world.read('notes/memory/project.md')).toContain('Atlas: Postgres')
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
    expect(fake.requests).toHaveLength(3)
    const [readResult] = toolResultsOf(fake.requests[1]!)
    expect(readResult?.content).toBe('# User\n\n- Name: Alex\n')
    expect(readResult?.is_error).toBeUndefined()
    expect(toolResultsOf(fake.requests[2]!).map((block) => block.is_error ?? false)).toEqual([false, false])
    expect(world.tools.changedFiles()).toHaveLength(2)
  })

  it('sends the tools, the system prompt, the run header and cache_control on the stable prefix', async () => {
    const { fake, provider, world } = await setup([
      reply.tools([{ name: 'list_files', input: { path: 'notes/memory' } }]),
      reply.text('ok'),
    ])
    await provider.runTurn(turnInput({ model: 'claude-dream-model' }), world.tools, neverAborted())
    const [first, second] = fake.requests.map((request) => request.body)

    expect(fake.requests[0]?.path).toBe('/v1/messages')
    expect(fake.requests[0]?.headers.authorization ?? fake.requests[0]?.headers['x-api-key']).toContain(
      'test-key',
    )
    expect(first.model).toBe('claude-dream-model')
    expect(first.system).toEqual([
      { type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } },
    ])
    const specs = world.tools.specs()
    expect(first.tools.map((tool: { name: string }) => tool.name)).toEqual(specs.map((spec) => spec.name))
    expect(first.tools[0].input_schema).toEqual(specs[0]?.inputSchema)
    expect(first.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' })
    expect(first.tools.slice(0, -1).every((tool: object) => !('cache_control' in tool))).toBe(true)
    expect(first.messages[0].content[0].text).toMatch(/^dream 3\nWindow: 2026-11-21/)
    // The moving breakpoint sits on the newest block only, so each request reads the earlier turn from cache.
    expect(first.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral' })
    expect(second.messages).toHaveLength(3)
    expect(second.messages[0].content[0].cache_control).toBeUndefined()
    expect(second.messages[2].content[0]).toMatchObject({
      type: 'tool_result',
      cache_control: { type: 'ephemeral' },
    })
    expect(first.max_tokens).toBe(4096)
  })

  it('uses its configured model when the turn names none', async () => {
    const { fake, provider, world } = await setup([reply.text('nothing to do')])
    const result = await provider.runTurn(turnInput({ model: undefined }), world.tools, neverAborted())
    expect(fake.requests[0]?.body.model).toBe('claude-default')
    expect(result).toMatchObject({ stop: 'end', text: 'nothing to do' })
  })

  it('passes refused, unknown and malformed tool calls back as is_error results and carries on', async () => {
    const { fake, provider, world } = await setup([
      reply.tools([
        { name: 'write_file', input: { path: '../outside.md', content: 'x' } },
        { name: 'delete_everything', input: {} },
        { name: 'read_file', input: { file: 'notes/memory/user.md' } },
        { name: 'write_file', input: { path: '.dreamlane/config.json', content: '{}' } },
      ]),
      reply.text('Some calls were refused.'),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())

    expect(result.stop).toBe('end')
    const results = toolResultsOf(fake.requests[1]!)
    expect(results).toHaveLength(4)
    expect(results.every((block) => block.is_error === true)).toBe(true)
    expect(results[1]?.content).toContain('there is no tool "delete_everything"')
    expect(results[2]?.content).toContain('invalid input for read_file')
    expect(world.tools.calls().map((call) => call.code)).toEqual([
      'PATH_OUT_OF_SCOPE',
      'UNKNOWN_TOOL',
      'TOOL_INPUT_INVALID',
      expect.any(String),
    ])
  })

  it('ends on a text-only reply and on a max_tokens cut while budget remains', async () => {
    const { provider, world } = await setup([reply.text('I was cut off mid-sent', {}, 'max_tokens')])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'end', text: 'I was cut off mid-sent' })
  })

  it('treats a full context window as a token limit', async () => {
    const { provider, world } = await setup([reply.text('', {}, 'model_context_window_exceeded')])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'limit', limit: 'tokens', text: '' })
  })
})

describe('anthropic provider: retries', () => {
  it('retries a 529 and then a 429 with retry-after, and the turn succeeds', async () => {
    const { fake, provider, world, waits, retries } = await setup([
      reply.error(529, 'overloaded_error'),
      reply.error(429, 'rate_limit_error', { 'retry-after': '1' }),
      reply.text('done after retries', { input: 10, output: 5 }),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())

    expect(result).toMatchObject({ stop: 'end', text: 'done after retries' })
    expect(fake.requests).toHaveLength(3)
    // Backoff with random 0.5: 1000 ms ceiling → 500 + 250; then the server's 1 s.
    expect(waits).toEqual([750, 1000])
    expect(retries.map((retry) => retry.reason)).toEqual([
      expect.stringContaining('HTTP 529 overloaded_error'),
      expect.stringContaining('HTTP 429 rate_limit_error'),
    ])
    expect(result.usage).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      requests: 1,
    })
  })

  it('throws PROVIDER_FAILED after repeated 500s, with the last failure as cause', async () => {
    const { fake, provider, world, waits } = await setup(
      Array.from({ length: 5 }, () => reply.error(500, 'api_error')),
      { retry: { maxRetries: 3 } },
    )
    const error = await provider.runTurn(turnInput(), world.tools, neverAborted()).catch((e: unknown) => e)

    expect(error).toBeInstanceOf(DreamlaneError)
    expect((error as DreamlaneError).code).toBe('PROVIDER_FAILED')
    expect((error as DreamlaneError).message).toMatch(/after 4 attempt\(s\): HTTP 500 api_error/)
    expect((error as Error).cause).toBeDefined()
    expect(fake.requests).toHaveLength(4)
    expect(waits).toEqual([750, 1500, 3000])
  })

  it('does not retry a 400 (a request the API will never accept)', async () => {
    const { fake, provider, world } = await setup([
      reply.error(400, 'invalid_request_error'),
      reply.text('never'),
    ])
    await expect(provider.runTurn(turnInput(), world.tools, neverAborted())).rejects.toThrow(
      /HTTP 400 invalid_request_error/,
    )
    expect(fake.requests).toHaveLength(1)
  })

  it('retries a request that exceeds the per-request timeout', async () => {
    const { fake, provider, world, retries } = await setup([reply.hang(), reply.text('second try')], {
      requestTimeoutMs: 150,
    })
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'end', text: 'second try' })
    expect(fake.requests).toHaveLength(2)
    expect(retries[0]?.reason).toMatch(/connection failed/)
  })
})

describe('anthropic provider: limits, timeout, cancellation, usage', () => {
  it('stops a hanging response at the whole-turn timeout with limit "timeout"', async () => {
    const { provider, world } = await setup([reply.hang()])
    const started = performance.now()
    const result = await provider.runTurn(
      turnInput({ budget: { ...BUDGET, timeoutMs: 200 } }),
      world.tools,
      neverAborted(),
    )
    expect(result).toMatchObject({ stop: 'limit', limit: 'timeout' })
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('returns "aborted" when the caller aborts a waiting request', async () => {
    const { fake, provider, world } = await setup([reply.hang()])
    const controller = new AbortController()
    const turn = provider.runTurn(turnInput(), world.tools, controller.signal)
    await waitFor(() => fake.requests.length === 1)
    controller.abort()
    expect(await turn).toMatchObject({ stop: 'aborted' })
  })

  it('stops at the tool-call limit without running the extra call', async () => {
    const read = { name: 'read_file', input: { path: 'notes/memory/user.md' } }
    const { fake, provider, world } = await setup([
      reply.tools([read, read]),
      reply.tools([read, read]),
      reply.text('never'),
    ])
    const result = await provider.runTurn(
      turnInput({ budget: { ...BUDGET, maxToolCalls: 3 } }),
      world.tools,
      neverAborted(),
    )
    expect(result).toMatchObject({ stop: 'limit', limit: 'tool_calls' })
    expect(world.tools.calls()).toHaveLength(3)
    expect(fake.requests).toHaveLength(2)
  })

  it('caps max_tokens by the output budget and stops once it is spent', async () => {
    const read = { name: 'read_file', input: { path: 'notes/memory/user.md' } }
    const { fake, provider, world } = await setup([reply.tools([read], { output: 950 }), reply.text('never')])
    const result = await provider.runTurn(
      turnInput({ budget: { ...BUDGET, maxOutputTokens: 1000 } }),
      world.tools,
      neverAborted(),
    )
    expect(fake.requests[0]?.body.max_tokens).toBe(1000)
    expect(result).toMatchObject({ stop: 'limit', limit: 'tokens' })
    expect(fake.requests).toHaveLength(1)
  })

  it('stops before a request whose estimated size would pass the total token budget', async () => {
    const { fake, provider, world } = await setup([reply.text('never')])
    const result = await provider.runTurn(
      turnInput({ budget: { ...BUDGET, maxTotalTokens: 1000 } }),
      world.tools,
      neverAborted(),
    )
    expect(result).toMatchObject({ stop: 'limit', limit: 'tokens' })
    expect(fake.requests).toHaveLength(0)
  })

  it('sums input, output, cache read and cache write tokens exactly', async () => {
    const read = { name: 'read_file', input: { path: 'notes/memory/user.md' } }
    const { provider, world } = await setup([
      reply.tools([read], { input: 1200, output: 40, cacheWrite: 5000, cacheRead: 0 }),
      reply.tools([read], { input: 300, output: 35, cacheWrite: 120, cacheRead: 5000 }),
      reply.text('done', { input: 90, output: 12, cacheWrite: 0, cacheRead: 5120 }),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result.usage).toEqual({
      inputTokens: 1590,
      outputTokens: 87,
      cacheReadTokens: 10120,
      cacheWriteTokens: 5120,
      requests: 3,
    })
  })
})

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10))
  if (!check()) throw new Error('condition not reached')
}
