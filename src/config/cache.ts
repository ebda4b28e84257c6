// The checked config, kept between runs: zod (about 60 ms to import) runs once per distinct set of inputs.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defaultTimeZone } from '../time/local-day.js'
import { defaultZoneSource } from '../time/zone-source.js'
import { digest64 } from './digest.js'
import { envLayer, locateDataDir, merge, readConfigText } from './layers.js'
import type { ResolveConfigOptions } from './resolve.js'
import type { ConfigFile, ResolvedConfig } from './schema.js'

/** Kept in the data dir next to config.json; safe to delete at any time. */
export const CONFIG_CACHE_FILE = 'resolved-config.json'

/** The modules whose code decides what a set of inputs resolves to: editing any of them invalidates every cache. */
const RESOLVER_MODULES = [
  './schema.js',
  './resolve.js',
  './layers.js',
  './choices.js',
  './recall-names.js',
  '../time/local-day.js',
]

/**
 * Settings that may come from the environment and must never be written to disk, not even hashed: any
 * non-empty text is valid for them, so a cached entry leaves them out and they are re-read from the layers.
 */
const SECRET_KEYS = [['providers', 'openaiCompatible', 'apiKey']] as const

interface CacheEntry {
  /** digest of every input (layers, paths, zone default, resolver code, Node version). */
  inputs: string
  config: ResolvedConfig
  /** digest of `inputs` and `config`: a hand-edited entry is never trusted. */
  seal: string
}

/**
 * resolveConfig, reusing the last result when every input is byte-for-byte the same: config.json's text, the
 * env vars and flags it reads, the working directory's paths, the default zone (by where it comes from where
 * that is a link, so a hit never starts ICU), the resolver's own code and the Node version. Any difference
 * (or no cache yet) resolves with zod as before, errors included, and stores the result when the data dir
 * exists.
 */
export async function resolveConfigCached(options: ResolveConfigOptions = {}): Promise<ResolvedConfig> {
  const env = options.env ?? {}
  const flags = options.flags ?? {}
  const fromEnv = envLayer(env).layer as ConfigFile
  const resolveWithZod = async (): Promise<ResolvedConfig> =>
    (await import('./resolve.js')).resolveConfig(options)
  // A path that is not a string is an error only zod words well.
  if (![flags.workspace, flags.dataDir, fromEnv.workspace, fromEnv.dataDir].every(isStringOrAbsent))
    return resolveWithZod()
  const { dataDir } = locateDataDir(options.cwd ?? process.cwd(), flags, fromEnv)
  const configText = readTextIfFile(join(dataDir, 'config.json'))
  // An unreadable config.json (a folder, no permission) is an error resolveConfig words well.
  if (configText === undefined) return resolveWithZod()
  const inputs = digest64(
    JSON.stringify([
      resolverFingerprint(),
      process.version,
      options.cwd ?? process.cwd(),
      withoutSecrets(flags),
      withoutSecrets(fromEnv),
      // What the default zone comes from rather than the zone itself, where that can be read without ICU.
      defaultZoneSource(env.TZ) ?? defaultTimeZone(env.TZ),
      configText,
    ]),
  )
  const file = join(dataDir, CONFIG_CACHE_FILE)
  const cached = readEntry(file, inputs)
  if (cached) return withSecrets(cached, merge<ConfigFile>(JSON.parse(configText ?? '{}'), fromEnv, flags))
  const config = await resolveWithZod()
  if (existsSync(dataDir) && readTextIfFile(join(dataDir, 'config.json')) === configText)
    writeEntry(file, inputs, config)
  return config
}

/** The file's text, null when there is none, undefined when it cannot be read. */
function readTextIfFile(file: string): string | null | undefined {
  try {
    return readConfigText(file)
  } catch (error) {
    if (isFsError(error)) return undefined
    throw error
  }
}

function isFsError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | null)?.code === 'string'
}

function isStringOrAbsent(value: unknown): boolean {
  return value === undefined || typeof value === 'string'
}

let fingerprint: string | undefined

/** Digest of the resolver modules' source, read next to this file (dist/*.js, or src/*.ts under tests). */
function resolverFingerprint(): string {
  if (fingerprint) return fingerprint
  const ext = extname(fileURLToPath(import.meta.url))
  const sources = RESOLVER_MODULES.map((spec) =>
    readFileSync(fileURLToPath(new URL(spec.replace(/\.js$/, ext), import.meta.url)), 'utf8'),
  )
  fingerprint = digest64(JSON.stringify(sources))
  return fingerprint
}

function sealOf(inputs: string, configJson: string): string {
  return digest64(`${inputs}\n${configJson}`)
}

/** The cached config for `inputs`, or null when there is none, it is for other inputs, or it was altered. */
function readEntry(file: string, inputs: string): ResolvedConfig | null {
  const text = readTextIfFile(file)
  if (typeof text !== 'string') return null
  let entry: CacheEntry
  try {
    entry = JSON.parse(text) as CacheEntry
  } catch {
    return null // a torn or hand-edited cache is only a miss: zod resolves and the entry is rewritten
  }
  if (entry?.inputs !== inputs || entry.seal !== sealOf(inputs, JSON.stringify(entry.config))) return null
  return entry.config
}

/** Written atomically (temp file, rename); a failed write (read-only data dir, full disk) only skips the cache. */
function writeEntry(file: string, inputs: string, config: ResolvedConfig): void {
  const stored = structuredClone(config) as unknown as Record<string, unknown>
  for (const path of SECRET_KEYS) deletePath(stored, path)
  const configJson = JSON.stringify(stored)
  const entry = `{"inputs":${JSON.stringify(inputs)},"config":${configJson},"seal":"${sealOf(inputs, configJson)}"}\n`
  const temp = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(temp, entry, { mode: 0o600 })
    renameSync(temp, file)
  } catch (error) {
    rmSync(temp, { force: true })
    if (!isFsError(error)) throw error
  }
}

/** The cached config with the secrets put back from the layers they came from. */
function withSecrets(config: ResolvedConfig, merged: ConfigFile): ResolvedConfig {
  const out = config as unknown as Record<string, unknown>
  for (const path of SECRET_KEYS) {
    const value = readPath(merged, path)
    if (value !== undefined) writePath(out, path, value)
  }
  return config
}

/** `layer` with each secret that is text replaced by a placeholder (one that is not text is zod's to refuse). */
function withoutSecrets(layer: ConfigFile): ConfigFile {
  const copy = structuredClone(layer) as Record<string, unknown>
  for (const path of SECRET_KEYS)
    if (typeof readPath(copy, path) === 'string') writePath(copy, path, '(secret)')
  return copy
}

function readPath(target: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], target)
}

function writePath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const parent = readPath(target, path.slice(0, -1)) as Record<string, unknown>
  parent[path[path.length - 1] as string] = value
}

function deletePath(target: Record<string, unknown>, path: readonly string[]): void {
  const parent = readPath(target, path.slice(0, -1)) as Record<string, unknown> | undefined
  if (parent) delete parent[path[path.length - 1] as string]
}
