// Shared plumbing of `dreamlane fleet …` and `dreamlane worker`: the registry file, the Redis URL, output.
import type { Command } from 'commander'
import type { FleetRegistry } from '../fleet/registry.js'
import type { FailedDreamJob } from '../fleet/status.js'
import { DreamlaneError } from '../errors.js'
import { globalOptions } from './context.js'

export interface FleetOptions {
  fleet?: string
  redis?: string
}

export interface FleetCliContext {
  registry: FleetRegistry
  redisUrl: string
  json: boolean
  print(data: unknown, text: () => string): void
  progress(message: string): void
}

/** Adds --fleet and --redis to a command. */
export function withFleetOptions(command: Command): Command {
  return command
    .option('--fleet <file>', 'the fleet registry (env DREAMLANE_FLEET; default ./fleet.json)')
    .option(
      '--redis <url>',
      "Redis URL (env DREAMLANE_REDIS_URL; default: the registry's, else redis://127.0.0.1:6379)",
    )
}

/** Loads the registry (zod-checked) and decides the Redis URL: flag > env > registry > default. */
export async function loadFleet(
  options: FleetOptions,
): Promise<{ registry: FleetRegistry; redisUrl: string }> {
  const { loadFleetRegistry } = await import('../fleet/registry.js')
  const { DEFAULT_REDIS_URL } = await import('../fleet/queue.js')
  const registry = loadFleetRegistry(
    options.fleet ?? process.env.DREAMLANE_FLEET ?? 'fleet.json',
    process.env,
  )
  const redisUrl = options.redis ?? process.env.DREAMLANE_REDIS_URL ?? registry.redisUrl ?? DEFAULT_REDIS_URL
  return { registry, redisUrl }
}

/** The failed jobs of the fleet workspace at `workspaceDir` (for `runs --failed --fleet`). */
export async function failedFleetJobsOf(
  options: FleetOptions & { fleet: string; limit: number },
  workspaceDir: string,
): Promise<{ workspaceId: string; failed: FailedDreamJob[] }> {
  const { registry, redisUrl } = await loadFleet(options)
  const workspace = registry.workspaces.find((entry) => entry.config.workspace === workspaceDir)
  if (!workspace)
    throw new DreamlaneError('NOT_FOUND', `${workspaceDir} is not one of the workspaces of ${registry.file}`)
  const { openDreamQueue } = await import('../fleet/queue.js')
  const { readFleetStatus } = await import('../fleet/status.js')
  const queue = await openDreamQueue(redisUrl)
  try {
    const { failed } = await readFleetStatus(queue, { workspaceId: workspace.id, limit: options.limit })
    return { workspaceId: workspace.id, failed }
  } finally {
    await queue.close()
  }
}

/** The registry and Redis URL of a fleet command, and its output helpers. */
export async function fleetCliContext(command: Command): Promise<FleetCliContext> {
  const { registry, redisUrl } = await loadFleet(command.optsWithGlobals() as FleetOptions)
  const json = Boolean(globalOptions(command).json)
  return {
    registry,
    redisUrl,
    json,
    print(data, text) {
      console.log(json ? JSON.stringify(data, null, 2) : text())
    },
    progress(message) {
      if (!json) process.stderr.write(`${message}\n`)
    },
  }
}
