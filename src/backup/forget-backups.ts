// Which backups still hold what was forgotten, and rewriting them without it (`forget --purge-backups`).
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { forgetInText } from '../notes/forget-text.js'
import type { WorkspacePaths } from '../notes/paths.js'
import type { ForgetMatcher } from '../privacy/forget-match.js'
import type { NoteFile } from './collect.js'
import { listBackups, type BackupSummary } from './list.js'
import { readBackupFiles } from './verify.js'
import { writeBackupZip } from './write-zip.js'
import { readBackupManifest } from './verify.js'

export interface BackupHolding {
  id: string
  /** The backed-up notes that mention it. */
  paths: string[]
}

/** Every backup with a note that `matcher` matches, newest first (each zip read and checked whole). */
export async function findBackupsHolding(
  paths: Pick<WorkspacePaths, 'backups'>,
  matcher: ForgetMatcher,
): Promise<BackupHolding[]> {
  const holding: BackupHolding[] = []
  for (const backup of await listBackups(paths)) {
    const found = await holdingIn(backup, matcher)
    if (found.length > 0) holding.push({ id: backup.id, paths: found })
  }
  return holding
}

async function holdingIn(backup: BackupSummary, matcher: ForgetMatcher): Promise<string[]> {
  const files = await readBackupFiles(backup.file)
  return [...files].filter(([, content]) => matcher.matches(content.toString('utf8'))).map(([path]) => path)
}

/**
 * Rewrites each backup that holds it with the same forget applied to its notes, under the same name: the new
 * zip is written beside it (temp name), then renamed over it, so a crash leaves one whole zip either way.
 * Returns the ids rewritten.
 */
export async function purgeFromBackups(
  paths: Pick<WorkspacePaths, 'backups'>,
  matcher: ForgetMatcher,
): Promise<string[]> {
  const purged: string[] = []
  for (const backup of await listBackups(paths)) {
    const files = await readBackupFiles(backup.file)
    if (![...files.values()].some((content) => matcher.matches(content.toString('utf8')))) continue
    await rewriteBackup(backup, files, matcher)
    purged.push(backup.id)
  }
  return purged
}

async function rewriteBackup(
  backup: BackupSummary,
  files: Map<string, Buffer>,
  matcher: ForgetMatcher,
): Promise<void> {
  const manifest = await readBackupManifest(backup.file)
  const scratch = await mkdtemp(join(dirname(backup.file), '.purge-'))
  try {
    const notes: NoteFile[] = []
    for (const [path, content] of files) {
      const file = join(scratch, 'tree', ...path.split('/'))
      const text = content.toString('utf8')
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, matcher.matches(text) ? forgetInText(path, text, matcher).text : content)
      notes.push({ file, path })
    }
    const zip = join(scratch, 'purged.zip')
    const meta = { createdAt: manifest.createdAt, mode: manifest.mode, chatJid: manifest.chatJid }
    await writeBackupZip(zip, notes, meta)
    await rename(zip, backup.file)
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}
