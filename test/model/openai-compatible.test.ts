// The OpenAI-compatible provider against a local fake chat completions server: same loop, limits and accounting.
import { describe, expect, it, onTestFinished } from 'vitest'
import { DreamlaneError } from '../../src/errors.js'
import {
  createOpenAiCompatibleProvider,
  type OpenAiCompatibleProviderOptions,
} from '../../src/model/openai-compatible.js'
import type { FakeStep } from '../helpers/fake-anthropic.js'
import { openAiReply as reply, startFakeOpenAi, toolMessagesOf } from '../helpers/fake-openai.js'
import {
  BUDGET,
  makeProviderWorld,
  neverAborted,
  recordingSleep,
  recordRetries,
  SYSTEM_PROMPT,
  turnInput,
} from './provider-world.js'

async function setup(script: FakeStep[], options: Partial<OpenAiCompatibleProviderOptions> = {}) {
  const fake = await startFakeOpenAi(script)
  onTestFinished(() => fake.close())
  const { sleep, waits } = recordingSleep()
  const { onRetry, retries } = recordRetries()
  const provider = createOpenAiCompatibleProvider({
    baseUrl: `${fake.url}/v1/`,
    model: 'qwen-local',
    sleep,
    onRetry,
    random: () => 0,
    ...options,
  })
  const world = await makeProviderWorld()
  return { fake, provider, world, waits, retries }
}

const readUser = { name: 'read_file', arguments: { path: 'notes/memory/user.md' } }

describe('openai-compatible provider: the tool loop', () => {
  it('runs a multi-step loop that edits notes through the real tool layer', async () => {
    const { fake, provider, world } = await setup([
      reply.tools([readUser]),
      reply.tools([
        {
          name: 'edit_file',
          arguments: {
            path: 'notes/memory/user.md',
            old_string: '- Name: Alex\n',
            new_string: '- Name: Alex\n- Lives in Porto\n',
          },
        },
      ]),
      reply.text('Updated user.md.'),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())

    expect(result).toMatchObject({ stop: 'end', text: 'Updated user.md.' })
    expect(world.read('notes/memory/user.md')).toContain('- Lives in Porto\n')
    expect(fake.requests).toHaveLength(3)
    expect(toolMessagesOf(fake.requests[1]!)[0]?.content).toBe('# User\n\n- Name: Alex\n')
    const assistant = fake.requests[1]?.body.messages[2]
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: null,
      tool_calls: [{ type: 'function', function: { name: 'read_file' } }],
    })
  })

  it('sends system prompt, run header, tools as functions, the turn model and the key', async () => {
    const { fake, provider, world } = await setup([reply.text('ok')], { apiKey: 'local-key' })
    await provider.runTurn(turnInput({ model: 'llama-dream' }), world.tools, neverAborted())
    const request = fake.requests[0]!
    expect(request.path).toBe('/v1/chat/completions')
    expect(request.headers.authorization).toBe('Bearer local-key')
    expect(request.body.model).toBe('llama-dream')
    expect(request.body.messages.slice(0, 2)).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: turnInput().prompt },
    ])
    const specs = world.tools.specs()
    expect(request.body.tools).toHaveLength(specs.length)
    expect(request.body.tools[1]).toEqual({
      type: 'function',
      function: {
        name: specs[1]?.name,
        description: specs[1]?.description,
        parameters: specs[1]?.inputSchema,
      },
    })
    expect(request.body).toMatchObject({ max_tokens: 4096, stream: false })
  })

  it('reports refused calls and unreadable arguments to the model as ERROR tool messages', async () => {
    const { fake, provider, world } = await setup([
      reply.tools([
        { name: 'write_file', arguments: { path: '/etc/passwd.md', content: 'x' } },
        { name: 'read_file', arguments: '{"path": "notes/memory/user.md"' },
        { name: 'read_file', arguments: '' },
        { name: 'no_such_tool', arguments: {} },
      ]),
      reply.text('ok'),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result.stop).toBe('end')
    const results = toolMessagesOf(fake.requests[1]!)
    expect(results.map((message) => message.content)).toEqual([
      expect.stringMatching(/^ERROR \(PATH_OUT_OF_SCOPE\): /),
      expect.stringMatching(/^ERROR \(TOOL_INPUT_INVALID\): the tool arguments were not valid JSON/),
      expect.stringMatching(/^ERROR \(TOOL_INPUT_INVALID\): invalid input/),
      expect.stringMatching(/^ERROR \(UNKNOWN_TOOL\): /),
    ])
    expect(new Set(results.map((message) => message.tool_call_id)).size).toBe(4)
  })
})

describe('openai-compatible provider: retries and failures', () => {
  it('retries a 529 and then a 429 with retry-after, and the turn succeeds', async () => {
    const { fake, provider, world, waits, retries } = await setup([
      reply.error(529),
      reply.error(429, { 'retry-after': '1' }),
      reply.text('done'),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result).toMatchObject({ stop: 'end', text: 'done' })
    expect(fake.requests).toHaveLength(3)
    expect(waits).toEqual([500, 1000])
    expect(retries.map((retry) => retry.reason.slice(0, 8))).toEqual(['HTTP 529', 'HTTP 429'])
  })

  it('throws PROVIDER_FAILED after repeated 500s', async () => {
    const { fake, provider, world } = await setup(
      Array.from({ length: 4 }, () => reply.error(500)),
      { retry: { maxRetries: 2 } },
    )
    const error = await provider.runTurn(turnInput(), world.tools, neverAborted()).catch((e: unknown) => e)
    expect((error as DreamlaneError).code).toBe('PROVIDER_FAILED')
    expect((error as Error).message).toMatch(/after 3 attempt\(s\): HTTP 500/)
    expect(fake.requests).toHaveLength(3)
  })

  it('retries a dropped connection (nothing listening) and then gives up', async () => {
    const { fake, world } = await setup([])
    const url = fake.url
    await fake.close()
    const { sleep, waits } = recordingSleep()
    const provider = createOpenAiCompatibleProvider({
      baseUrl: url,
      model: 'm',
      sleep,
      retry: { maxRetries: 1 },
    })
    await expect(provider.runTurn(turnInput(), world.tools, neverAborted())).rejects.toThrow(
      /after 2 attempt\(s\): connection failed/,
    )
    expect(waits).toHaveLength(1)
  })

  it('stops a hanging response at the whole-turn timeout', async () => {
    const { provider, world } = await setup([reply.hang()])
    const result = await provider.runTurn(
      turnInput({ budget: { ...BUDGET, timeoutMs: 200 } }),
      world.tools,
      neverAborted(),
    )
    expect(result).toMatchObject({ stop: 'limit', limit: 'timeout' })
  })
})

describe('openai-compatible provider: usage and limits', () => {
  it('sums usage exactly, splitting cached prompt tokens out of the input', async () => {
    const { provider, world } = await setup([
      reply.tools([readUser], { prompt: 2000, completion: 30, cached: 0 }),
      reply.tools([readUser], { prompt: 2100, completion: 25, cached: 1900 }),
      reply.text('done', { prompt: 2200, completion: 10 }),
    ])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result.usage).toEqual({
      inputTokens: 4400,
      outputTokens: 65,
      cacheReadTokens: 1900,
      cacheWriteTokens: 0,
      requests: 3,
    })
  })

  it('estimates usage (chars/4) when a server reports none', async () => {
    const { fake, provider, world } = await setup([reply.text('x'.repeat(400), null)])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result.usage.outputTokens).toBe(100)
    expect(result.usage.inputTokens).toBe(Math.ceil(fake.requests[0]!.raw.length / 4))
  })

  it('stops at the tool-call limit', async () => {
    const { provider, world } = await setup([
      reply.tools([readUser, readUser, readUser]),
      reply.text('never'),
    ])
    const result = await provider.runTurn(
      turnInput({ budget: { ...BUDGET, maxToolCalls: 2 } }),
      world.tools,
      neverAborted(),
    )
    expect(result).toMatchObject({ stop: 'limit', limit: 'tool_calls' })
    expect(world.tools.calls()).toHaveLength(2)
  })

  it('treats a length cut that spends the output budget as a token limit', async () => {
    const { provider, world } = await setup([reply.text('partial', { completion: 500 }, 'length')])
    const result = await provider.runTurn(
      turnInput({ budget: { ...BUDGET, maxOutputTokens: 500 } }),
      world.tools,
      neverAborted(),
    )
    expect(result).toMatchObject({ stop: 'limit', limit: 'tokens', text: 'partial' })
  })
})
