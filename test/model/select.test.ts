// Provider selection: explicit config/env wins, then ANTHROPIC_API_KEY, else offline; real turns prove the wiring.
import { describe, expect, it, onTestFinished } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import type { ConfigFile } from '../../src/config/schema.js'
import { ConfigError } from '../../src/errors.js'
import { selectProvider } from '../../src/model/select.js'
import { anthropicReply, startScriptedServer } from '../helpers/fake-anthropic.js'
import { openAiReply, startFakeOpenAi } from '../helpers/fake-openai.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { makeProviderWorld, neverAborted, turnInput } from './provider-world.js'

type Env = Record<string, string | undefined>

function configWith(env: Env, flags: ConfigFile = {}) {
  const ws = makeWorkspace()
  return resolveConfig({ cwd: ws.dir, env, flags: { workspace: ws.dir, timezone: 'UTC', ...flags } })
}

describe('selectProvider', () => {
  it('falls back to the offline engine with no key and no choice', () => {
    const selected = selectProvider(configWith({}), {})
    expect(selected).toMatchObject({
      name: 'offline',
      model: null,
      reason: expect.stringContaining('no ANTHROPIC_API_KEY'),
    })
    expect(selected.provider.name).toBe('offline')
    // Known before the engine loads: the lifecycle sizes the message tools' pages from it ahead of the turn.
    expect(selected.provider.messagePageMax).toBe(2000)
  })

  it('picks anthropic when ANTHROPIC_API_KEY is set, with the default model', () => {
    const env = { ANTHROPIC_API_KEY: 'sk-test' }
    const selected = selectProvider(configWith(env), env)
    expect(selected).toMatchObject({
      name: 'anthropic',
      model: 'claude-sonnet-4-6',
      reason: 'ANTHROPIC_API_KEY is set',
    })
    expect(selected.provider).toMatchObject({ name: 'anthropic', model: 'claude-sonnet-4-6' })
  })

  it('lets DREAMLANE_DREAM_MODEL override the model for dreams', () => {
    const env = {
      ANTHROPIC_API_KEY: 'sk-test',
      DREAMLANE_MODEL: 'claude-chat',
      DREAMLANE_DREAM_MODEL: 'claude-dreamer',
    }
    expect(selectProvider(configWith(env), env).model).toBe('claude-dreamer')
  })

  it('lets an explicit DREAMLANE_PROVIDER win over a present key', () => {
    const env = { ANTHROPIC_API_KEY: 'sk-test', DREAMLANE_PROVIDER: 'offline' }
    expect(selectProvider(configWith(env), env)).toMatchObject({
      name: 'offline',
      reason: 'DREAMLANE_PROVIDER=offline',
    })
  })

  it('reads DREAMLANE_PROVIDER even when the config was resolved without env', () => {
    const selected = selectProvider(configWith({}), { ANTHROPIC_API_KEY: 'k', DREAMLANE_PROVIDER: 'offline' })
    expect(selected.name).toBe('offline')
  })

  it('names the config file as the reason for a configured provider', () => {
    const env = { ANTHROPIC_API_KEY: 'sk-test' }
    const selected = selectProvider(configWith({}, { dream: { provider: 'offline' } }), env)
    expect(selected).toMatchObject({ name: 'offline', reason: 'dream.provider is "offline" in config' })
  })

  it.each([
    ['anthropic without a key', {}, { dream: { provider: 'anthropic' } }, 'ANTHROPIC_API_KEY'],
    [
      'openai-compatible without a base URL',
      {},
      { dream: { provider: 'openai-compatible', model: 'm' } },
      'providers.openaiCompatible.baseUrl',
    ],
    [
      'openai-compatible without a model',
      {},
      {
        dream: { provider: 'openai-compatible' },
        providers: { openaiCompatible: { baseUrl: 'http://127.0.0.1:1/v1' } },
      },
      'providers.openaiCompatible.model',
    ],
    ['an unknown DREAMLANE_PROVIDER', { DREAMLANE_PROVIDER: 'gpt' }, {}, 'DREAMLANE_PROVIDER'],
  ] as [string, Env, ConfigFile, string][])(
    'refuses %s with a ConfigError naming the key',
    (_name, env, flags, key) => {
      const config = configWith({}, flags)
      let error: unknown
      try {
        selectProvider(config, env)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).issues[0]?.key).toBe(key)
    },
  )
})

describe('selectProvider wiring (real turns against local fakes)', () => {
  it('honours ANTHROPIC_BASE_URL and sends the dream model', async () => {
    const fake = await startScriptedServer([anthropicReply.text('hello from the fake')])
    onTestFinished(() => fake.close())
    const env = {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
      DREAMLANE_DREAM_MODEL: 'claude-dreamer',
    }
    const selected = selectProvider(configWith(env), env)
    expect(selected.reason).toBe(`ANTHROPIC_API_KEY is set (base URL ${fake.url})`)
    const world = await makeProviderWorld()
    const result = await selected.provider.runTurn(
      turnInput({ model: 'claude-dreamer' }),
      world.tools,
      neverAborted(),
    )
    expect(result.text).toBe('hello from the fake')
    expect(fake.requests[0]?.body.model).toBe('claude-dreamer')
  })

  it('builds the openai-compatible provider from DREAMLANE_OPENAI_* settings', async () => {
    const fake = await startFakeOpenAi([openAiReply.text('local model here')])
    onTestFinished(() => fake.close())
    const env = {
      DREAMLANE_PROVIDER: 'openai-compatible',
      DREAMLANE_OPENAI_BASE_URL: `${fake.url}/v1`,
      DREAMLANE_OPENAI_MODEL: 'qwen3:8b',
      DREAMLANE_OPENAI_API_KEY: 'ollama',
    }
    const selected = selectProvider(configWith(env), env)
    expect(selected).toMatchObject({ name: 'openai-compatible', model: 'qwen3:8b' })
    const world = await makeProviderWorld()
    const result = await selected.provider.runTurn(
      turnInput({ model: undefined }),
      world.tools,
      neverAborted(),
    )
    expect(result.text).toBe('local model here')
    expect(fake.requests[0]?.body.model).toBe('qwen3:8b')
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer ollama')
  })
})
