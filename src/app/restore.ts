// Use case: restore notes from a backup under the workspace lock, the same for the CLI, the API and the library.
import { join } from 'node:path'
import { findBackup } from '../backup/list.js'
import type { RestoreResult } from '../backup/restore.js'
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { StateDb } from '../db/state.js'
import { markDirty } from '../fts/journal.js'
import { withWorkspaceLock } from '../notes/lock.js'
import type { WorkspacePaths } from '../notes/paths.js'

export type { RestoreResult }

export interface RestoreDeps {
  paths: WorkspacePaths
  config: ResolvedConfig
  clock: Clock
  state: StateDb
}

/**
 * Restores backup `id` while holding the workspace lock, so no dream writes notes halfway through; a running
 * dream makes this fail with LOCK_HELD before anything is touched. Restored files are marked for reindexing.
 */
export async function restoreFromBackup(deps: RestoreDeps, id: string): Promise<RestoreResult> {
  // An unknown id is BACKUP_NOT_FOUND whoever holds the lock.
  await findBackup(deps.paths, id)
  const { restoreBackup } = await import('../backup/restore.js')
  return withWorkspaceLock(deps, `restore-${id}`, async () => {
    const result = await restoreBackup({
      paths: deps.paths,
      id,
      clock: deps.clock,
      keep: deps.config.backups.keep,
    })
    const touched = [...result.restored, ...result.removed].map((path) =>
      join(deps.paths.workspace, ...path.split('/')),
    )
    markDirty(deps.state, deps.paths.workspace, touched)
    return result
  })
}
