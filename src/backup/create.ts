// Creates a backup of notes/daily and notes/memory as `<data>/backups/<id>.zip`, then prunes to the newest N.
import { randomBytes } from 'node:crypto'
import { link, mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../clock.js'
import { syncDir } from '../notes/dir-syncs.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { collectNoteFiles, isMissing } from './collect.js'
import type { ManifestEntry } from './manifest.js'
import { BACKUP_EXTENSION, formatBackupId, formatStamp, nextSequence, sanitizeMode } from './naming.js'
import { pruneBackups } from './prune.js'
import { writeBackupZip, type ZipTuning } from './write-zip.js'
import { WriteFailedError, isWriteRefusal } from '../errors.js'

export interface CreateBackupInput {
  paths: WorkspacePaths
  /** manual | auto | bootstrap | restore | … (sanitised to [A-Za-z0-9_] in the id). */
  mode: string
  chatJid: string
  clock: Clock
  /** Backups to keep after this one is written (the new one always survives). Values below 1 count as 1. */
  keep: number
  /** Zip settings; the measured defaults unless a bench wants to compare. */
  tuning?: ZipTuning
}

export interface BackupInfo {
  /** The file name without `.zip`. */
  id: string
  file: string
  createdAt: string
  mode: string
  chatJid: string
  fileCount: number
  /** Archive size on disk. */
  bytes: number
  manifest: ManifestEntry[]
}

/** Writes a new backup, then prunes older ones down to `keep`. */
export async function createBackup(input: CreateBackupInput): Promise<BackupInfo> {
  const info = await writeBackup(input).catch((error: unknown) => {
    throw isWriteRefusal(error) ? new WriteFailedError(input.paths.backups, error) : error
  })
  await pruneBackups(input.paths, input.keep, [info.id])
  return info
}

/**
 * Writes a new backup without pruning (restore uses this for its safety backup, so the backup being
 * restored cannot be pruned away before it has been read). The zip is streamed to a hidden temp file and
 * only appears under its final name once complete and fsynced.
 */
export async function writeBackup(input: Omit<CreateBackupInput, 'keep'>): Promise<BackupInfo> {
  const { paths, clock } = input
  await mkdir(paths.backups, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    // A file where the backups folder (or a folder above it) should be is a refused write, not a bug.
    if (error.code === 'EEXIST' || error.code === 'ENOTDIR' || isWriteRefusal(error))
      throw new WriteFailedError(paths.backups, error)
    throw error
  })
  const now = clock.now()
  const stamp = formatStamp(now)
  // Second precision, exactly what listBackups() reads back from the file name.
  const createdAt = new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString()
  const temp = join(paths.backups, `.backup-${randomBytes(6).toString('hex')}${BACKUP_EXTENSION}.tmp`)
  try {
    // Listed while the zip writer's workers start.
    const notes = collectNoteFiles(paths)
    const meta = { createdAt, mode: input.mode, chatJid: input.chatJid }
    const written = await writeBackupZip(temp, notes, meta, input.tuning)
    const id = await publish(temp, paths.backups, stamp, (sequence) =>
      formatBackupId(stamp, sequence, input.mode, input.chatJid),
    )
    return {
      id,
      file: join(paths.backups, `${id}${BACKUP_EXTENSION}`),
      createdAt,
      mode: sanitizeMode(input.mode),
      chatJid: input.chatJid,
      fileCount: written.manifest.files.length,
      bytes: written.bytes,
      manifest: written.manifest.files,
    }
  } finally {
    await rm(temp, { force: true })
  }
}

/**
 * Gives the finished temp file its final name without ever replacing another backup: link() fails with
 * EEXIST where rename() would silently overwrite, so two backups in the same second get distinct sequences.
 */
async function publish(
  temp: string,
  dir: string,
  stamp: string,
  idFor: (sequence: number) => string,
): Promise<string> {
  // Start above the highest sequence already used in this second so ids keep sorting in creation order.
  for (let sequence = nextSequence(stamp, await readdir(dir)); ; sequence++) {
    const id = idFor(sequence)
    const file = join(dir, `${id}${BACKUP_EXTENSION}`)
    try {
      await link(temp, file)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EEXIST') continue
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw error
      // No hard links here: check-then-rename is the best left (one dream per workspace anyway).
      if (await exists(file)) continue
      await rename(temp, file)
    }
    await syncDir(dir)
    return id
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file)
    return true
  } catch (error) {
    if (isMissing(error)) return false
    throw error
  }
}
