// Which dream provider config and env choose, and why: the checks and words of selection, no provider built.
import type { ProviderChoice, ResolvedConfig } from '../config/schema.js'
import { ConfigError } from '../errors.js'

export type ProviderName = Exclude<ProviderChoice, 'auto'>

export interface ProviderChoiceMade {
  name: ProviderName
  /** The model dreams will ask for; null for the offline engine. */
  model: string | null
  /** Why this provider, in words for `dreamlane status`. */
  reason: string
}

type Env = Record<string, string | undefined>

const EXPLICIT: readonly string[] = ['offline', 'anthropic', 'openai-compatible']

/**
 * `dream.provider` (config) or DREAMLANE_PROVIDER (env) wins when set to anything but 'auto'; otherwise
 * ANTHROPIC_API_KEY selects anthropic; otherwise the offline engine. An explicit provider that lacks
 * what it needs (a key, a base URL) is a ConfigError, never a silent fallback.
 */
export function chooseProvider(config: ResolvedConfig, env: Env): ProviderChoiceMade {
  const fromEnv = env.DREAMLANE_PROVIDER?.trim()
  const configured = config.dream.provider
  if (configured !== 'auto') {
    const source =
      fromEnv === configured
        ? `DREAMLANE_PROVIDER=${configured}`
        : `dream.provider is "${configured}" in config`
    return check(configured, config, env, source)
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
    return check(fromEnv as ProviderName, config, env, `DREAMLANE_PROVIDER=${fromEnv}`)
  }
  if (env.ANTHROPIC_API_KEY?.trim()) return check('anthropic', config, env, 'ANTHROPIC_API_KEY is set')
  return check('offline', config, env, 'no ANTHROPIC_API_KEY and no provider configured')
}

/** The Anthropic API's base URL: ANTHROPIC_BASE_URL, else config, else the SDK's default (undefined). */
export function anthropicBaseUrl(config: ResolvedConfig, env: Env): string | undefined {
  return env.ANTHROPIC_BASE_URL?.trim() || config.providers.anthropic.baseUrl
}

function check(name: ProviderName, config: ResolvedConfig, env: Env, reason: string): ProviderChoiceMade {
  if (name === 'offline') return { name, model: null, reason }
  if (name === 'anthropic') {
    if (!env.ANTHROPIC_API_KEY?.trim())
      throw missing('ANTHROPIC_API_KEY', `${reason}, but ANTHROPIC_API_KEY is not set`)
    const model = config.dream.model ?? config.providers.anthropic.model
    const baseUrl = anthropicBaseUrl(config, env)
    return { name, model, reason: baseUrl ? `${reason} (base URL ${baseUrl})` : reason }
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
  return { name, model, reason: `${reason} (${settings.baseUrl})` }
}

function missing(key: string, message: string): ConfigError {
  return new ConfigError([{ key, message }], 'provider selection')
}
