// First boot: when a core memory file is missing, copy the templates and queue exactly one bootstrap dream.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Clock } from '../clock.js'
import type { StateDb } from '../db/state.js'
import { SettingsStore } from '../dream/settings.js'
import { initWorkspace } from '../notes/init-workspace.js'
import { CORE_MEMORY_FILES, type WorkspacePaths } from '../notes/paths.js'

const CLAIM_KEY = 'bootstrap.claimedAt'

export function missingCoreFiles(paths: WorkspacePaths): string[] {
  return CORE_MEMORY_FILES.filter((name) => !existsSync(join(paths.memory, name)))
}

/**
 * Claims the bootstrap in state.db. SQLite serialises the write, so of several processes starting together
 * exactly one wins. A claim older than `reclaimAfterMs` may be taken again (core files deleted much later).
 */
export function claimBootstrap(state: StateDb, clock: Clock, reclaimAfterMs: number): boolean {
  new SettingsStore(state) // ensures the settings table exists
  const now = clock.now()
  const horizon = new Date(now.getTime() - reclaimAfterMs).toISOString()
  const result = state
    .prepare(
      `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
      ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
      WHERE settings.updated_at < ?`,
    )
    .run(CLAIM_KEY, now.toISOString(), now.toISOString(), horizon)
  return result.changes === 1
}

export interface BootstrapDecision {
  missing: string[]
  /** True when this process claimed the bootstrap and copied the templates: it must queue the dream. */
  claimed: boolean
}

/** Decides and prepares the bootstrap; the caller queues the dream when `claimed`. */
export async function prepareBootstrap(input: {
  paths: WorkspacePaths
  state: StateDb
  clock: Clock
  reclaimAfterMs: number
}): Promise<BootstrapDecision> {
  const missing = missingCoreFiles(input.paths)
  if (missing.length === 0) return { missing, claimed: false }
  const claimed = claimBootstrap(input.state, input.clock, input.reclaimAfterMs)
  if (claimed) await initWorkspace(input.paths)
  return { missing, claimed }
}
