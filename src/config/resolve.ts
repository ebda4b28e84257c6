// Resolves settings once: <data>/config.json < DREAMLANE_* env vars < flags, zod-checked, defaults filled in.
import { isAbsolute, join, resolve } from 'node:path'
import type { z } from 'zod'
import { ConfigError, type ConfigIssue } from '../errors.js'
import { defaultTimeZone } from '../time/local-day.js'
import { envLayer, merge, readConfigText, locateDataDir } from './layers.js'
import { configFileSchema, resolvedConfigSchema, type ConfigFile, type ResolvedConfig } from './schema.js'

export interface ResolveConfigOptions {
  /** Process environment (injected so tests never touch the real one). */
  env?: Record<string, string | undefined>
  cwd?: string
  /** Highest-precedence overrides, e.g. from CLI flags. */
  flags?: ConfigFile
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
  let raw: unknown
  try {
    const text = readConfigText(file)
    if (text === null) return {}
    raw = JSON.parse(text)
  } catch (error) {
    throw new ConfigError([{ key: '(file)', message: `not valid JSON: ${(error as Error).message}` }], file)
  }
  return validate(raw, file)
}

/** Resolve the effective config. Throws `ConfigError` naming every bad key and what it expects. */
export function resolveConfig(options: ResolveConfigOptions = {}): ResolvedConfig {
  const env = options.env ?? {}
  const cwd = options.cwd ?? process.cwd()
  const flags = validate(options.flags ?? {}, 'command-line flags')
  const { layer: rawEnv, names } = envLayer(env)
  const fromEnv = validate(rawEnv, 'environment', (key) => `${names.get(key) ?? 'env'} (${key})`)

  const { workspace, dataDir } = locateDataDir(cwd, flags, fromEnv)
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
