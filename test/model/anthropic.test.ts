// The Anthropic provider's own wire details against a local fake Messages API: the request's shape and cache
// breakpoints, its model, its stop reasons and retries. What every provider keeps is in provider-contract.test.ts.
import { describe, expect, it, onTestFinished } from 'vitest'
import { createAnthropicProvider, type AnthropicProviderOptions } from '../../src/model/anthropic.js'
import { anthropicReply as reply, startScriptedServer, type FakeStep } from '../helpers/fake-anthropic.js'
import {
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
  it('sends the tools, the system prompt, the run header and cache_control on the stable prefix', async () => {
    const { fake, provider, world } = await setup([
      reply.tools([{ name: 'list_files', input: { path: 'notes/memory' } }]),
      reply.tools([{ name: 'list_files', input: { path: 'notes/daily' } }]),
      reply.text('ok'),
    ])
    await provider.runTurn(turnInput({ model: 'claude-dream-model' }), world.tools, neverAborted())
    const [first, second, third] = fake.requests.map((request) => request.body)

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
    // Breakpoints move with the conversation: on the newest user message, and on the one before it (where the
    // previous request ended), so each request reads all of the previous one from the cache.
    const marks = (body: { messages: { content: { cache_control?: unknown }[] }[] }) =>
      body.messages.map((message) => message.content.map((block) => block.cache_control !== undefined))
    expect(marks(first)).toEqual([[true]])
    expect(marks(second)).toEqual([[true], [false], [true]])
    expect(marks(third)).toEqual([[false], [false], [true], [false], [true]])
    expect(second.messages[2].content[0].type).toBe('tool_result')
    expect(first.max_tokens).toBe(4096)
  })

  it('uses its configured model when the turn names none', async () => {
    const { fake, provider, world } = await setup([reply.text('nothing to do')])
    const result = await provider.runTurn(turnInput({ model: undefined }), world.tools, neverAborted())
    expect(fake.requests[0]?.body.model).toBe('claude-default')
    expect(result).toMatchObject({ stop: 'end', text: 'nothing to do' })
  })

  it('treats a full context window as a token limit', async () => {
    const { provider, world } = await setup([reply.text('', {}, 'model_context_window_exceeded')])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'limit', limit: 'tokens', text: '' })
  })
})

describe('anthropic provider: retries', () => {
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
    expect(retries[0]?.reason).toBe('the request timed out after 150 ms (requestTimeoutMs)')
  })
})
