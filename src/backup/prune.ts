// Keeps the newest N backups and deletes the rest.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { WorkspacePaths } from '../notes/paths.js'
import { listBackupIds } from './list.js'
import { BACKUP_EXTENSION } from './naming.js'

/**
 * Deletes all but the newest `keep` backups (below 1 or NaN counts as 1); returns removed ids, newest first.
 * `protectedIds` are never removed, even when older than the cut (a backup just written under a clock that
 * went backwards, or one a caller is still reading).
 */
export async function pruneBackups(
  paths: Pick<WorkspacePaths, 'backups'>,
  keep: number,
  protectedIds: readonly string[] = [],
): Promise<string[]> {
  const limit = Number.isNaN(keep) ? 1 : Math.max(1, Math.floor(keep))
  const spared = new Set(protectedIds)
  const removed: string[] = []
  for (const backup of (await listBackupIds(paths)).slice(limit)) {
    if (spared.has(backup.id)) continue
    // force: a concurrent prune may have removed it first; the end state is the same.
    await rm(join(paths.backups, `${backup.id}${BACKUP_EXTENSION}`), { force: true })
    removed.push(backup.id)
  }
  return removed
}
