// Wires only what `status` reads (the two databases, the provider's name), not a whole Dreamlane.
import { readDreamlaneStatus, type DreamlaneStatus } from './app/status.js'
import { systemClock, type Clock } from './clock.js'
import type { ResolvedConfig } from './config/schema.js'
import type { DbWait } from './db/busy.js'
import { openMessagesDb } from './db/messages.js'
import { openStateDb } from './db/state.js'
import { RunStore } from './dream/runs.js'
import { SettingsStore } from './dream/settings.js'
import { chooseProvider } from './model/choice.js'
import { assertWorkspaceExists, workspacePaths } from './notes/paths.js'

export interface ReadStatusOptions {
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
export async function readWorkspaceStatus(options: ReadStatusOptions): Promise<DreamlaneStatus> {
  const { config } = options
  const paths = workspacePaths(config)
  assertWorkspaceExists(paths.workspace)
  const clock = options.clock ?? systemClock
  const state = openStateDb(paths.stateDb)
  try {
    const selected = chooseProvider(config, options.env ?? process.env)
    const messages = openMessagesDb(paths.messagesDb, { ...options.messagesDbWait, create: false })
    try {
      const deps = {
        ...{ config, paths, clock, state, messages },
        runs: new RunStore(state, clock, config.timezone),
        settings: new SettingsStore(state),
        provider: { name: selected.name },
        dreams: { activeRunId: null },
      }
      return await readDreamlaneStatus(deps, {
        model: selected.model,
        providerReason: selected.reason,
        scheduledAt: null,
      })
    } finally {
      messages.close()
    }
  } finally {
    state.close()
  }
}
