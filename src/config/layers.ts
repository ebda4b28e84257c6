// The raw layers of settings before any checking: env vars read into keys, config.json's text, the paths, merging.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ConfigFile } from './schema.js'

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

export function envLayer(env: Record<string, string | undefined>): {
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

/** config.json's text, or null when there is none. */
export function readConfigText(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8') : null
}

/** Where the workspace and data dir are: flags over env over the current directory. */
export function locateDataDir(
  cwd: string,
  flags: Pick<ConfigFile, 'workspace' | 'dataDir'>,
  fromEnv: Pick<ConfigFile, 'workspace' | 'dataDir'>,
): { workspace: string; dataDir: string } {
  const workspace = resolve(cwd, flags.workspace ?? fromEnv.workspace ?? '.')
  return { workspace, dataDir: resolve(workspace, flags.dataDir ?? fromEnv.dataDir ?? '.dreamlane') }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function merge<T>(...layers: Record<string, unknown>[]): T {
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
