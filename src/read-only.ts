// Wires only what the read commands (`status`, `gate`) need: the two databases and the provider's choice.
import { checkGate, type GateDecision } from './app/dream.js'
import { readDreamlaneStatus, type DreamlaneStatus } from './app/status.js'
import { systemClock, type Clock } from './clock.js'
import type { ResolvedConfig } from './config/schema.js'
import type { DbWait } from './db/busy.js'
import { openMessagesDb } from './db/messages.js'
import { openStateDb } from './db/state.js'
import type { GateDeps } from './dream/gates.js'
import { RunStore } from './dream/runs.js'
import { SettingsStore } from './dream/settings.js'
import type { DreamMode } from './dream/types.js'
import { chooseProvider, type ProviderChoiceMade } from './model/choice.js'
import { assertWorkspaceExists, workspacePaths } from './notes/paths.js'

export interface ReadOnlyOptions {
  config: ResolvedConfig
  /** Environment for provider selection. @default process.env */
  env?: Record<string, string | undefined>
  /** @default the system clock */
  clock?: Clock
  /** How long to wait on a messages DB another process keeps locked. @default 5 s, no progress */
  messagesDbWait?: DbWait
}

/**
 * The status `createDreamlane(...).status()` reports from a process that runs no dream and no schedule,
 * without building the queue, lanes, logger and providers a Dreamlane carries (what `dreamlane status` pays).
 */
export function readWorkspaceStatus(options: ReadOnlyOptions): Promise<DreamlaneStatus> {
  return withStores(options, (deps, chosen) =>
    readDreamlaneStatus(
      { ...deps, provider: { name: chosen.name }, dreams: { activeRunId: null } },
      { model: chosen.model, providerReason: chosen.reason, scheduledAt: null },
    ),
  )
}

/** What `createDreamlane(...).gate(mode)` says, opened the same lean way. */
export function readGate(options: ReadOnlyOptions, mode: DreamMode): Promise<GateDecision> {
  return withStores(options, (deps) => checkGate(deps, mode))
}

/**
 * Opens the stores in the order createDreamlane does (so the same problem is reported first: state.db, the
 * provider's settings, the messages DB), runs `read`, and closes them.
 */
async function withStores<T>(
  options: ReadOnlyOptions,
  read: (deps: GateDeps, chosen: ProviderChoiceMade) => Promise<T>,
): Promise<T> {
  const { config } = options
  const paths = workspacePaths(config)
  assertWorkspaceExists(paths.workspace)
  const clock = options.clock ?? systemClock
  const state = openStateDb(paths.stateDb)
  try {
    const chosen = chooseProvider(config, options.env ?? process.env)
    const messages = openMessagesDb(paths.messagesDb, { ...options.messagesDbWait, create: false })
    try {
      const runs = new RunStore(state, clock, config.timezone)
      const deps = { config, paths, clock, state, messages, runs, settings: new SettingsStore(state) }
      return await read(deps, chosen)
    } finally {
      messages.close()
    }
  } finally {
    state.close()
  }
}
