// Resolves settings once: <data>/config.json < DREAMLANE_* env vars < flags, zod-checked, defaults filled in.
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import type { z } from 'zod'
import { ConfigError, type ConfigIssue } from '../errors.js'
import { defaultTimeZone } from '../time/local-day.js'
import { configFileSchema, resolvedConfigSchema, type ConfigFile, type ResolvedConfig } from './schema.js'

export interface ResolveConfigOptions {
  /** Process environment (injected so tests never touch the real one). */
  env?: Record<string, string | undefined>
  cwd?: string
  /** Highest-precedence overrides, e.g. from CLI flags. */
  flags?: ConfigFile
}

type EnvParser = (raw: string) => unknown
const asNumber: EnvParser = (raw) => (raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw)
const asList: EnvParser = (raw) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
const asString: EnvParser = (raw) => raw
const asBoolean: EnvParser = (raw) => {
  const value = raw.trim().toLowerCase()
  if (['1', 'true', 'on', 'yes'].includes(value)) return true
  if (['0', 'false', 'off', 'no'].includes(value)) return false
  return raw
}

/** Env var → dotted config key. Only these are read; unknown DREAMLANE_* vars are ignored. */
const ENV_KEYS: Record<string, [key: string, parse: EnvParser]> = {
  DREAMLANE_WORKSPACE: ['workspace', asString],
  DREAMLANE_DATA_DIR: ['dataDir', asString],
  DREAMLANE_MESSAGES_DB: ['messagesDb', asString],
  DREAMLANE_TIMEZONE: ['timezone', asString],
  DREAMLANE_BACKUP_KEEP: ['backups.keep', asNumber],
  DREAMLANE_SEARCH_ROOTS: ['search.roots', asList],
  DREAMLANE_SEARCH_EXTENSIONS: ['search.extensions', asList],
  DREAMLANE_MEMORY_BUDGET_BYTES: ['memory.indexBudgetBytes', asNumber],
  DREAMLANE_PROVIDER: ['dream.provider', asString],
  DREAMLANE_MODEL: ['dream.model', asString],
  DREAMLANE_DREAM_MODEL: ['dream.model', asString],
  DREAMLANE_MAX_TOOL_CALLS: ['dream.maxToolCalls', asNumber],
  DREAMLANE_TURN_TIMEOUT_MS: ['dream.turnTimeoutMs', asNumber],
  DREAMLANE_AUTODREAM: ['autoDream.enabled', asBoolean],
  DREAMLANE_AUTODREAM_CRON: ['autoDream.cron', asString],
  DREAMLANE_AUTODREAM_DAYS: ['dream.autoDays', asNumber],
  ANTHROPIC_BASE_URL: ['providers.anthropic.baseUrl', asString],
  DREAMLANE_OPENAI_BASE_URL: ['providers.openaiCompatible.baseUrl', asString],
  DREAMLANE_OPENAI_MODEL: ['providers.openaiCompatible.model', asString],
  DREAMLANE_OPENAI_API_KEY: ['providers.openaiCompatible.apiKey', asString],
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.')
  let node = target
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {}
    node = node[key] as Record<string, unknown>
  }
  node[keys[keys.length - 1] as string] = value
}

function envLayer(env: Record<string, string | undefined>): {
  layer: Record<string, unknown>
  names: Map<string, string>
} {
  const layer: Record<string, unknown> = {}
  const names = new Map<string, string>()
  // DREAMLANE_DREAM_MODEL is listed after DREAMLANE_MODEL, so it wins for dreams.
  for (const [name, [key, parse]] of Object.entries(ENV_KEYS)) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    setPath(layer, key, parse(raw))
    names.set(key, name)
  }
  return { layer, names }
}

function issuesOf(error: z.ZodError, describeKey: (key: string) => string): ConfigIssue[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String).join('.')
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((extra) => ({
        key: describeKey(base ? `${base}.${extra}` : extra),
        message: 'unknown setting (check the spelling; see README "Configuration")',
      }))
    }
    return [{ key: describeKey(base || '(root)'), message: issue.message }]
  })
}

/** Checks one layer; returns it as given (defaults are filled in once, after the layers are merged). */
function validate(
  layer: unknown,
  source: string,
  describeKey: (key: string) => string = (k) => k,
): ConfigFile {
  const parsed = configFileSchema.safeParse(layer)
  if (!parsed.success) throw new ConfigError(issuesOf(parsed.error, describeKey), source)
  return layer as ConfigFile
}

function readConfigFile(file: string): ConfigFile {
  if (!existsSync(file)) return {}
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new ConfigError([{ key: '(file)', message: `not valid JSON: ${(error as Error).message}` }], file)
  }
  return validate(raw, file)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function merge<T>(...layers: Record<string, unknown>[]): T {
  const out: Record<string, unknown> = {}
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue
      const existing = out[key]
      out[key] =
        isPlainObject(existing) && isPlainObject(value)
          ? merge<Record<string, unknown>>(existing, value)
          : value
    }
  }
  return out as T
}

/** Resolve the effective config. Throws `ConfigError` naming every bad key and what it expects. */
export function resolveConfig(options: ResolveConfigOptions = {}): ResolvedConfig {
  const env = options.env ?? {}
  const cwd = options.cwd ?? process.cwd()
  const flags = validate(options.flags ?? {}, 'command-line flags')
  const { layer: rawEnv, names } = envLayer(env)
  const fromEnv = validate(rawEnv, 'environment', (key) => `${names.get(key) ?? 'env'} (${key})`)

  const workspace = resolve(cwd, flags.workspace ?? fromEnv.workspace ?? '.')
  const dataDir = resolve(workspace, flags.dataDir ?? fromEnv.dataDir ?? '.dreamlane')
  const fromFile = readConfigFile(join(dataDir, 'config.json'))
  const merged = merge<ConfigFile>(fromFile, fromEnv, flags)

  const messagesDb = merged.messagesDb
    ? isAbsolute(merged.messagesDb)
      ? merged.messagesDb
      : resolve(dataDir, merged.messagesDb)
    : join(dataDir, 'messages.db')

  const parsed = resolvedConfigSchema.safeParse({
    ...merged,
    workspace,
    dataDir,
    messagesDb,
    timezone: merged.timezone ?? defaultTimeZone(env.TZ),
  })
  if (!parsed.success)
    throw new ConfigError(
      issuesOf(parsed.error, (key) => key),
      'merged settings',
    )
  const resolved: ResolvedConfig = parsed.data
  if (resolved.dream.defaultDays > resolved.dream.maxDays) {
    throw new ConfigError(
      [{ key: 'dream.defaultDays', message: `expected at most dream.maxDays (${resolved.dream.maxDays})` }],
      'merged settings',
    )
  }
  return resolved
}

/** What a host passes to createDreamlane about settings. */
export interface HostSettings {
  config?: ResolvedConfig
  workspace?: string
  dataDir?: string
  messagesDb?: string
  settings?: ConfigFile
}

/** The host's `config` as given, else resolved with its paths and settings as the highest layer. */
export function resolveHostConfig(
  host: HostSettings,
  env: Record<string, string | undefined>,
): ResolvedConfig {
  if (host.config) return host.config
  const { workspace, dataDir, messagesDb } = host
  const given = Object.entries({ workspace, dataDir, messagesDb }).filter(([, value]) => value)
  return resolveConfig({ env, flags: { ...host.settings, ...Object.fromEntries(given) } })
}
