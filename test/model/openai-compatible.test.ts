// The OpenAI-compatible provider's own wire details against a local fake chat completions server: messages and
// tools as functions, ERROR tool messages, servers that report no usage. What every provider keeps is in
// provider-contract.test.ts.
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  createOpenAiCompatibleProvider,
  type OpenAiCompatibleProviderOptions,
} from '../../src/model/openai-compatible.js'
import type { FakeStep } from '../helpers/fake-anthropic.js'
import { openAiReply as reply, startFakeOpenAi, toolMessagesOf } from '../helpers/fake-openai.js'
import {
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
  it('sends the assistant turn back with null content beside its tool calls', async () => {
    const { fake, provider, world } = await setup([reply.tools([readUser]), reply.text('done')])
    await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(fake.requests[1]?.body.messages[2]).toMatchObject({
      role: 'assistant',
      content: null,
      tool_calls: [{ type: 'function', function: { name: 'read_file' } }],
    })
    expect(toolMessagesOf(fake.requests[1]!)[0]?.content).toBe('# User\n\n- Name: Alex\n')
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
})

describe('openai-compatible provider: usage and limits', () => {
  it('estimates usage (chars/4) when a server reports none', async () => {
    const { fake, provider, world } = await setup([reply.text('x'.repeat(400), null)])
    const result = await provider.runTurn(turnInput(), world.tools, neverAborted())
    expect(result.usage.outputTokens).toBe(100)
    expect(result.usage.inputTokens).toBe(Math.ceil(fake.requests[0]!.raw.length / 4))
  })
})
