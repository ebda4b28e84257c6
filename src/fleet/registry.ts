// The fleet registry: a JSON file listing workspaces (and/or directory globs), each resolved to its own config.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { z } from 'zod'
import { resolveConfig } from '../config/resolve.js'
import type { ResolvedConfig } from '../config/schema.js'
import { ConfigError, DreamlaneError, type ConfigIssue } from '../errors.js'
import { expandDirectoryGlob } from './glob-dirs.js'

/** A workspace id names jobs and Redis keys, so it stays to characters safe in both. */
const WORKSPACE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/
const ID_RULE = 'letters, digits, ".", "_" or "-", starting with a letter or digit (at most 100)'

const workspaceEntrySchema = z
  .object({
    /** Names the workspace in jobs, logs and Redis keys. @default the directory's name */
    id: z.string().regex(WORKSPACE_ID, `expected ${ID_RULE}`).optional(),
    /** The workspace directory (notes/ lives here), relative to the registry file. */
    workspace: z.string().min(1),
    /** @default `<workspace>/.dreamlane` */
    dataDir: z.string().min(1).optional(),
    /** @default `<dataDir>/messages.db` */
    messagesDb: z.string().min(1).optional(),
  })
  .strict()

export const fleetFileSchema = z
  .object({
    /** Workspaces listed one by one. @default [] */
    workspaces: z.array(workspaceEntrySchema).default(() => []),
    /** Directory globs (`/srv/assistants/*`); each match is a workspace named after its directory. @default [] */
    globs: z.array(z.string().min(1)).default(() => []),
    /** Where the queue lives; `--redis` and DREAMLANE_REDIS_URL override it. @default none */
    redis: z.url({ protocol: /^rediss?$/, error: 'expected a redis:// or rediss:// URL' }).optional(),
    /** The model API's budget, shared by every worker. @default none (only a 429's retry-after pauses the fleet) */
    rateLimit: z
      .object({
        /** Model requests admitted across the fleet per `perSeconds`. @default no limit */
        requests: z.number().int().positive().optional(),
        /**
         * Model tokens across the fleet per `perSeconds`, as the provider bills them (cache reads at a tenth).
         * @default no limit
         */
        tokens: z.number().int().positive().optional(),
        /** The sliding window, in seconds. @default 60 */
        perSeconds: z.number().int().positive().default(60),
      })
      .strict()
      .refine((limit) => limit.requests !== undefined || limit.tokens !== undefined, {
        error: 'expected `requests`, `tokens` or both',
      })
      .optional(),
  })
  .strict()

export type FleetFile = z.input<typeof fleetFileSchema>

/** One listed or globbed workspace; `key` says where in the file it came from, for error messages. */
type RegistryEntry = z.output<typeof workspaceEntrySchema> & { key: string }

export interface FleetWorkspace {
  id: string
  config: ResolvedConfig
}

export interface FleetRegistry {
  /** The registry file, absolute. */
  file: string
  redisUrl: string | null
  rateLimit: { requests?: number | undefined; tokens?: number | undefined; perSeconds: number } | null
  workspaces: FleetWorkspace[]
}

/** Reads and checks the registry; a `ConfigError` lists every bad entry, including each workspace's own config. */
export function loadFleetRegistry(file: string, env: Record<string, string | undefined>): FleetRegistry {
  const path = resolve(file)
  if (!existsSync(path))
    throw new DreamlaneError(
      'CONFIG_INVALID',
      `fleet registry not found at ${path} (see README "Scaling out")`,
    )
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new ConfigError([{ key: '(file)', message: `not valid JSON: ${(error as Error).message}` }], path)
  }
  const parsed = fleetFileSchema.safeParse(raw)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      key: issue.path.map(String).join('.') || '(root)',
      message: issue.message,
    }))
    throw new ConfigError(issues, path)
  }
  const base = dirname(path)
  const entries: RegistryEntry[] = [
    ...parsed.data.workspaces.map((entry, index) => ({ ...entry, key: `workspaces.${index}` })),
    ...parsed.data.globs.flatMap((pattern, index) =>
      expandDirectoryGlob(pattern, base).map((dir) => ({ workspace: dir, key: `globs.${index} (${dir})` })),
    ),
  ]
  const issues: ConfigIssue[] = []
  const workspaces: FleetWorkspace[] = []
  const seen = new Map<string, string>()
  for (const entry of entries) {
    const dir = resolve(base, entry.workspace)
    const id = entry.id ?? basename(dir)
    if (!WORKSPACE_ID.test(id)) {
      issues.push({ key: entry.key, message: `"${id}" is not a usable workspace id: ${ID_RULE}` })
      continue
    }
    const clash = seen.get(id)
    if (clash) {
      issues.push({ key: entry.key, message: `workspace id "${id}" is also used by ${clash}` })
      continue
    }
    seen.set(id, entry.key)
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      issues.push({ key: entry.key, message: `workspace directory ${dir} does not exist` })
      continue
    }
    try {
      const flags = {
        workspace: dir,
        ...(entry.dataDir ? { dataDir: resolve(base, entry.dataDir) } : {}),
        ...(entry.messagesDb ? { messagesDb: resolve(base, entry.messagesDb) } : {}),
      }
      workspaces.push({ id, config: resolveConfig({ env, cwd: base, flags }) })
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      issues.push(
        ...error.issues.map((issue) => ({ key: `${entry.key} → ${issue.key}`, message: issue.message })),
      )
    }
  }
  if (issues.length) throw new ConfigError(issues, path)
  if (workspaces.length === 0)
    throw new ConfigError(
      [{ key: 'workspaces', message: 'the registry lists no workspace (and no glob matched)' }],
      path,
    )
  return {
    file: path,
    redisUrl: parsed.data.redis ?? null,
    rateLimit: parsed.data.rateLimit ?? null,
    workspaces,
  }
}

/** The registered workspace `id`, or a clear error naming the ones there are. */
export function fleetWorkspace(registry: FleetRegistry, id: string): FleetWorkspace {
  const found = registry.workspaces.find((workspace) => workspace.id === id)
  if (found) return found
  const known = registry.workspaces.map((workspace) => workspace.id)
  throw new DreamlaneError(
    'NOT_FOUND',
    `no workspace "${id}" in ${registry.file} (it has: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''})`,
  )
}
