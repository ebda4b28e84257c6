// Lists backups newest first from file names and one stat each; never opens a zip.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { BackupNotFoundError } from '../errors.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { isMissing } from './collect.js'
import { BACKUP_EXTENSION, compareNewestFirst, parseBackupId, type BackupId } from './naming.js'

export interface BackupSummary {
  id: string
  file: string
  createdAt: string
  mode: string
  /** As sanitised into the file name ([A-Za-z0-9._-]); the manifest keeps the original. */
  chatJid: string
  bytes: number
}

/** Backup ids found in the backups folder, newest first, without stat-ing anything (what pruning needs). */
export async function listBackupIds(paths: Pick<WorkspacePaths, 'backups'>): Promise<BackupId[]> {
  let names: string[]
  try {
    names = await readdir(paths.backups)
  } catch (error) {
    if (isMissing(error)) return []
    throw error
  }
  const ids: BackupId[] = []
  for (const name of names) {
    const parsed = name.endsWith(BACKUP_EXTENSION) ? parseBackupId(name) : undefined
    if (parsed) ids.push(parsed)
  }
  return ids.sort(compareNewestFirst)
}

/** Every backup, newest first. One that vanishes between listing and stat (concurrent prune) is left out. */
export async function listBackups(paths: Pick<WorkspacePaths, 'backups'>): Promise<BackupSummary[]> {
  const ids = await listBackupIds(paths)
  const summaries = await Promise.all(ids.map((id) => summarize(paths, id)))
  return summaries.filter((summary): summary is BackupSummary => summary !== undefined)
}

/** The backup with this id, or BackupNotFoundError (also for malformed ids, e.g. with a '/'). */
export async function findBackup(paths: Pick<WorkspacePaths, 'backups'>, id: string): Promise<BackupSummary> {
  const parsed = parseBackupId(id)
  const summary = parsed && parsed.id === id ? await summarize(paths, parsed) : undefined
  if (!summary) throw new BackupNotFoundError(id)
  return summary
}

async function summarize(
  paths: Pick<WorkspacePaths, 'backups'>,
  id: BackupId,
): Promise<BackupSummary | undefined> {
  const file = join(paths.backups, `${id.id}${BACKUP_EXTENSION}`)
  try {
    const info = await stat(file)
    if (!info.isFile()) return undefined
    return { id: id.id, file, createdAt: id.createdAt, mode: id.mode, chatJid: id.chatJid, bytes: info.size }
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
}
