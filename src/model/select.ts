// Picks the dream provider: explicit config/env first, then an Anthropic key, else the offline engine.
import type { Clock } from '../clock.js'
import type { ProviderChoice, ResolvedConfig } from '../config/schema.js'
import { ConfigError } from '../errors.js'
import { lazyProvider } from './lazy.js'
import { siblingModule, threadedProvider } from './threaded.js'
import { OFFLINE_PAGE_SIZE } from './offline/page-size.js'
import { createOpenAiCompatibleProvider } from './openai-compatible.js'
import type { ModelProvider } from './provider.js'
import type { ModelSlot, RetryAttempt, Sleep } from './retry.js'

export type ProviderName = Exclude<ProviderChoice, 'auto'>

export interface SelectedProvider {
  provider: ModelProvider
  name: ProviderName
  /** The model dreams will ask for; null for the offline engine. */
  model: string | null
  /** Why this provider, in words for `dreamlane status`. */
  reason: string
}

export interface SelectProviderOptions {
  clock?: Clock
  onRetry?: (attempt: RetryAttempt) => void
  /** Tests only: retry waits without real time. */
  sleep?: Sleep
  /** The global cap on concurrent model calls. */
  modelSlot?: ModelSlot
}

type Env = Record<string, string | undefined>

const EXPLICIT: readonly string[] = ['offline', 'anthropic', 'openai-compatible']

/**
 * `dream.provider` (config) or DREAMLANE_PROVIDER (env) wins when set to anything but 'auto'; otherwise
 * ANTHROPIC_API_KEY selects anthropic; otherwise the offline engine. An explicit provider that lacks
 * what it needs (a key, a base URL) is a ConfigError, never a silent fallback.
 */
export function selectProvider(
  config: ResolvedConfig,
  env: Env,
  options: SelectProviderOptions = {},
): SelectedProvider {
  const fromEnv = env.DREAMLANE_PROVIDER?.trim()
  const configured = config.dream.provider
  if (configured !== 'auto') {
    const source =
      fromEnv === configured
        ? `DREAMLANE_PROVIDER=${configured}`
        : `dream.provider is "${configured}" in config`
    return build(configured, config, env, options, source)
  }
  if (fromEnv && fromEnv !== 'auto') {
    if (!EXPLICIT.includes(fromEnv)) {
      throw new ConfigError(
        [
          {
            key: 'DREAMLANE_PROVIDER',
            message: `expected one of auto, ${EXPLICIT.join(', ')}; got "${fromEnv}"`,
          },
        ],
        'environment',
      )
    }
    return build(fromEnv as ProviderName, config, env, options, `DREAMLANE_PROVIDER=${fromEnv}`)
  }
  if (env.ANTHROPIC_API_KEY?.trim())
    return build('anthropic', config, env, options, 'ANTHROPIC_API_KEY is set')
  return build('offline', config, env, options, 'no ANTHROPIC_API_KEY and no provider configured')
}

function build(
  name: ProviderName,
  config: ResolvedConfig,
  env: Env,
  options: SelectProviderOptions,
  reason: string,
): SelectedProvider {
  const request = {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.modelSlot ? { modelSlot: options.modelSlot } : {}),
  }
  if (name === 'offline') return { provider: offlineProvider(config), name, model: null, reason }
  if (name === 'anthropic') {
    const settings = config.providers.anthropic
    const apiKey = env.ANTHROPIC_API_KEY?.trim()
    if (!apiKey) throw missing('ANTHROPIC_API_KEY', `${reason}, but ANTHROPIC_API_KEY is not set`)
    const model = config.dream.model ?? settings.model
    const baseUrl = env.ANTHROPIC_BASE_URL?.trim() || settings.baseUrl
    const options = {
      apiKey,
      model,
      ...(baseUrl ? { baseUrl } : {}),
      requestTimeoutMs: settings.requestTimeoutMs,
      maxTokensPerRequest: settings.maxTokensPerRequest,
      retry: { maxRetries: settings.maxRetries },
      ...request,
    }
    // The SDK is only worth importing when a turn runs.
    const provider = lazyProvider('anthropic', model, async () =>
      (await import('./anthropic.js')).createAnthropicProvider(options),
    )
    return { provider, name, model, reason: baseUrl ? `${reason} (base URL ${baseUrl})` : reason }
  }
  const settings = config.providers.openaiCompatible
  const model = config.dream.model ?? settings.model
  if (!settings.baseUrl)
    throw missing(
      'providers.openaiCompatible.baseUrl',
      `${reason}, but no base URL is set (or DREAMLANE_OPENAI_BASE_URL)`,
    )
  if (!model)
    throw missing(
      'providers.openaiCompatible.model',
      `${reason}, but no model is set (or DREAMLANE_OPENAI_MODEL / DREAMLANE_DREAM_MODEL)`,
    )
  const apiKey = settings.apiKey
  const provider = createOpenAiCompatibleProvider({
    baseUrl: settings.baseUrl,
    model,
    ...(apiKey ? { apiKey } : {}),
    requestTimeoutMs: settings.requestTimeoutMs,
    maxTokensPerRequest: settings.maxTokensPerRequest,
    retry: { maxRetries: settings.maxRetries },
    ...request,
  })
  return { provider, name, model, reason: `${reason} (${settings.baseUrl})` }
}

/**
 * The offline engine, each turn in a worker thread: its NLP libraries (compromise, chrono-node) load there, on
 * the first dream, and its CPU work never holds up chat turns or `/api/status` on the main thread.
 */
function offlineProvider(config: ResolvedConfig): ModelProvider {
  return threadedProvider({
    name: 'offline',
    entry: siblingModule(import.meta.url, './offline/worker'),
    options: { memoryBudgetBytes: config.memory.indexBudgetBytes },
    traits: { messagePageMax: OFFLINE_PAGE_SIZE },
  })
}

function missing(key: string, message: string): ConfigError {
  return new ConfigError([{ key, message }], 'provider selection')
}

/** The provider dreams use and the engine that takes over when it fails, with why (for `status`). */
export interface DreamProviders {
  provider: ModelProvider
  fallback: ModelProvider
  /** What selection chose; null when the host injected the provider. */
  selected: SelectedProvider | null
}

/**
 * An injected provider (tests, hosts) wins; otherwise config and env decide (a bad explicit choice is a
 * ConfigError). One offline engine serves as both the chosen provider and the fallback.
 */
export function selectDreamProviders(
  config: ResolvedConfig,
  env: Env,
  injected: ModelProvider | undefined,
  options: SelectProviderOptions = {},
): DreamProviders {
  const fallback = offlineProvider(config)
  const selected = injected ? null : selectProvider(config, env, options)
  const chosen = selected && selected.name !== 'offline' ? selected.provider : fallback
  return { provider: injected ?? chosen, fallback, selected }
}
