// Restores notes/daily and notes/memory from a backup: verify all, safety backup, then write atomically.
import { lstat, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../clock.js'
import { NoteReadOnlyError, PathOutOfScopeError } from '../errors.js'
import { isReadOnly, writeFileAtomic } from '../notes/atomic-write.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { collectNoteFiles, isMissing } from './collect.js'
import { writeBackup, type BackupInfo } from './create.js'
import { findBackup } from './list.js'
import type { BackupManifest } from './manifest.js'
import { pruneBackups } from './prune.js'
import { verifyBackup, visitBackupFiles } from './verify.js'

export interface RestoreInput {
  paths: WorkspacePaths
  id: string
  clock: Clock
  /** Backups to keep once the restore is done; the safety backup always survives. */
  keep: number
}

export interface RestoreResult {
  /** Files written because they were missing or differed from the backup. */
  restored: string[]
  /** Files already byte-identical to the backup, left untouched. */
  unchanged: string[]
  /** Files under notes/daily and notes/memory that the backup lacks, deleted so the tree matches it. */
  removed: string[]
  /** Taken before anything changed; restore it to undo this restore. */
  safetyBackup: BackupInfo
}

/**
 * Makes notes/daily and notes/memory exactly the backed-up tree. Every check (zip readable, manifest valid,
 * every size and sha256, safe names, writable targets) runs before anything is touched, so a bad backup
 * leaves the workspace as it was. Hidden, temp and symlinked entries are not part of backups and are left
 * alone. The caller should hold the workspace's dream lock so no dream writes notes meanwhile.
 */
export async function restoreBackup(input: RestoreInput): Promise<RestoreResult> {
  const { paths } = input
  const backup = await findBackup(paths, input.id)
  const manifest = await verifyBackup(backup.file)
  await checkTargets(paths, manifest)

  const { chatJid } = manifest
  const safetyBackup = await writeBackup({ paths, mode: 'restore', chatJid, clock: input.clock })
  const restored: string[] = []
  const unchanged: string[] = []
  // Second pass: each file is verified again as it is read, so only checked bytes are ever written.
  await visitBackupFiles(backup.file, async (entry, content) => {
    const target = join(paths.workspace, ...entry.path.split('/'))
    if (await hasContent(target, content)) return void unchanged.push(entry.path)
    await writeFileAtomic(target, content)
    restored.push(entry.path)
  })

  const kept = new Set(manifest.files.map((file) => file.path))
  const removed: string[] = []
  for (const note of await collectNoteFiles(paths)) {
    if (kept.has(note.path)) continue
    await rm(note.file, { force: true })
    removed.push(note.path)
  }
  await pruneBackups(paths, input.keep, [safetyBackup.id])
  return { restored, unchanged, removed, safetyBackup }
}

/**
 * Refuses before any write when a target's folder is a symlink (writing through it could land outside the
 * workspace) or when something other than a file sits where a note must go.
 */
async function checkTargets(paths: WorkspacePaths, manifest: BackupManifest): Promise<void> {
  const checked = new Set<string>()
  for (const file of manifest.files) {
    const segments = file.path.split('/')
    for (let depth = 1; depth < segments.length; depth++) {
      const folder = segments.slice(0, depth).join('/')
      if (checked.has(folder)) continue
      checked.add(folder)
      const kind = await kindOf(join(paths.workspace, ...segments.slice(0, depth)))
      if (kind !== 'missing' && kind !== 'directory') {
        throw new PathOutOfScopeError(folder, `restore needs a real folder here, found a ${kind}`)
      }
    }
    const kind = await kindOf(join(paths.workspace, ...segments))
    if (kind === 'directory' || kind === 'other') {
      throw new PathOutOfScopeError(file.path, `restore would replace a ${kind}`)
    }
  }
  // A note the user made read-only is neither replaced nor removed; say so before anything changes.
  for (const note of await collectNoteFiles(paths)) {
    if (isReadOnly((await lstat(note.file)).mode)) throw new NoteReadOnlyError(note.file, 'file')
  }
}

async function kindOf(path: string): Promise<'missing' | 'file' | 'directory' | 'symlink' | 'other'> {
  try {
    const info = await lstat(path)
    if (info.isSymbolicLink()) return 'symlink'
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other'
  } catch (error) {
    if (isMissing(error)) return 'missing'
    throw error
  }
}

/** True when `target` is a regular file holding exactly `content` (so rewriting it would change nothing). */
async function hasContent(target: string, content: Buffer): Promise<boolean> {
  try {
    const info = await lstat(target)
    if (!info.isFile() || info.size !== content.length) return false
    return (await readFile(target)).equals(content)
  } catch (error) {
    if (isMissing(error)) return false
    throw error
  }
}
