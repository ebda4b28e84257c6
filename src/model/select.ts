// Builds the dream provider config and env choose, and the offline engine that takes over when it fails.
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import { anthropicBaseUrl, chooseProvider, type ProviderChoiceMade } from './choice.js'
import { lazyProvider } from './lazy.js'
import { threadedProvider } from './threaded.js'
import { threadModule } from '../threads/thread-task.js'
import { OFFLINE_PAGE_SIZE } from './offline/page-size.js'
import { createOpenAiCompatibleProvider } from './openai-compatible.js'
import type { ModelProvider } from './provider.js'
import type { ModelSlot, RetryAttempt, Sleep } from './retry.js'

export type { ProviderName } from './choice.js'

export interface SelectedProvider extends ProviderChoiceMade {
  provider: ModelProvider
}

export interface SelectProviderOptions {
  clock?: Clock
  onRetry?: (attempt: RetryAttempt) => void
  /** Tests only: retry waits without real time. */
  sleep?: Sleep
  /** The global cap on concurrent model calls. */
  modelSlot?: ModelSlot
  /** How long the offline engine's idle thread is kept for the next dream (threaded.ts). @default 30000 */
  engineIdleMs?: number | undefined
  /**
   * Run the offline engine's turns on the calling thread instead of a thread of their own: for a caller that is
   * itself a background thread (the dream thread), where one more thread only adds a hop per tool call.
   */
  engineHere?: boolean | undefined
}

type Env = Record<string, string | undefined>

/** The provider config and env choose (model/choice.ts), built: a ConfigError when the choice lacks what it needs. */
export function selectProvider(
  config: ResolvedConfig,
  env: Env,
  options: SelectProviderOptions = {},
): SelectedProvider {
  const chosen = chooseProvider(config, env)
  return { ...chosen, provider: build(chosen, config, env, options) }
}

function build(
  chosen: ProviderChoiceMade,
  config: ResolvedConfig,
  env: Env,
  options: SelectProviderOptions,
): ModelProvider {
  const request = {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.modelSlot ? { modelSlot: options.modelSlot } : {}),
  }
  const model = chosen.model as string // set for every provider but the offline engine
  if (chosen.name === 'offline') return offlineProvider(config, options)
  if (chosen.name === 'anthropic') {
    const settings = config.providers.anthropic
    const baseUrl = anthropicBaseUrl(config, env)
    const providerOptions = {
      apiKey: env.ANTHROPIC_API_KEY?.trim() as string,
      model,
      ...(baseUrl ? { baseUrl } : {}),
      requestTimeoutMs: settings.requestTimeoutMs,
      maxTokensPerRequest: settings.maxTokensPerRequest,
      retry: { maxRetries: settings.maxRetries },
      ...request,
    }
    // The SDK is only worth importing when a turn runs.
    return lazyProvider('anthropic', model, async () =>
      (await import('./anthropic.js')).createAnthropicProvider(providerOptions),
    )
  }
  const settings = config.providers.openaiCompatible
  const apiKey = settings.apiKey
  return createOpenAiCompatibleProvider({
    baseUrl: settings.baseUrl as string,
    model,
    ...(apiKey ? { apiKey } : {}),
    requestTimeoutMs: settings.requestTimeoutMs,
    maxTokensPerRequest: settings.maxTokensPerRequest,
    retry: { maxRetries: settings.maxRetries },
    ...request,
  })
}

/**
 * The offline engine, each turn in a worker thread: its NLP libraries (compromise, chrono-node) load there, on
 * the first dream, and its CPU work never holds up chat turns or `/api/status` on the main thread. With
 * `engineHere` the turns run on the calling thread, the engine imported on the first.
 */
function offlineProvider(config: ResolvedConfig, options: SelectProviderOptions): ModelProvider {
  const engineOptions = {
    memoryBudgetBytes: config.memory.indexBudgetBytes,
    freshness: config.memory.freshness,
  }
  const traits = { messagePageMax: OFFLINE_PAGE_SIZE, weighsWords: true }
  if (options.engineHere) {
    return lazyProvider(
      'offline',
      undefined,
      async () => (await import('./offline/engine.js')).createOfflineProvider(engineOptions),
      traits,
    )
  }
  return threadedProvider({
    name: 'offline',
    ...(options.engineIdleMs !== undefined ? { idleMs: options.engineIdleMs } : {}),
    entry: threadModule(import.meta.url, './offline/worker'),
    options: engineOptions,
    traits,
  })
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
  const fallback = offlineProvider(config, options)
  const selected = injected ? null : selectProvider(config, env, options)
  const chosen = selected && selected.name !== 'offline' ? selected.provider : fallback
  return { provider: injected ?? chosen, fallback, selected }
}
