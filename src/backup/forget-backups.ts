// Which backups still hold what was forgotten, and rewriting them without it (`forget --purge-backups`).
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { planForgetIn, type ForgetPlan, type NoteText } from '../notes/forget-plan.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { compileForgetMatcher } from '../privacy/forget-match.js'
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

/**
 * What a backup holds of `phrases`, planned over its own notes as a forget plans over the live ones: a fact that
 * goes takes the names it held, even when the live notes lost that fact to an earlier forget ("forget my dentist",
 * then again with --purge-backups: the backups still say "Dentist: Dr Sousa", so "Dr Sousa" goes from them too).
 */
interface BackupForget {
  backup: BackupSummary
  files: Map<string, Buffer>
  plan: ForgetPlan
  /** The backed-up files the plan's phrases match. */
  holding: string[]
}

async function forgetIn(backup: BackupSummary, phrases: readonly string[]): Promise<BackupForget> {
  const files = await readBackupFiles(backup.file)
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const notes: NoteText[] = []
  for (const [path, content] of files) {
    try {
      notes.push({ rel: path, abs: path, text: decoder.decode(content) })
    } catch {
      // Not UTF-8: no note, never indexed, nothing a phrase can be found in.
    }
  }
  const plan = planForgetIn(notes, phrases)
  const matcher = compileForgetMatcher(plan.phrases)
  const holding = notes.filter((note) => matcher.matches(note.text)).map((note) => note.rel)
  return { backup, files, plan, holding }
}

/** Every backup with a note that mentions `phrases` (or a name a fact about them holds), newest first. */
export async function findBackupsHolding(
  paths: Pick<WorkspacePaths, 'backups'>,
  phrases: readonly string[],
): Promise<BackupHolding[]> {
  const holding: BackupHolding[] = []
  for (const backup of await listBackups(paths)) {
    const found = await forgetIn(backup, phrases)
    if (found.holding.length > 0) holding.push({ id: backup.id, paths: found.holding })
  }
  return holding
}

/**
 * Rewrites every backup that holds it with the same forget applied to its notes, under the same name: the new
 * zip is written beside it (temp name), then renamed over it, so a crash leaves one whole zip either way.
 * Returns the ids rewritten.
 */
export async function purgeFromBackups(
  paths: Pick<WorkspacePaths, 'backups'>,
  phrases: readonly string[],
): Promise<string[]> {
  const purged: string[] = []
  for (const backup of await listBackups(paths)) {
    const found = await forgetIn(backup, phrases)
    if (found.plan.files.length === 0) continue
    await rewriteBackup(found)
    purged.push(backup.id)
  }
  return purged
}

async function rewriteBackup({ backup, files, plan }: BackupForget): Promise<void> {
  const manifest = await readBackupManifest(backup.file)
  const after = new Map(plan.files.map((file) => [file.rel, file.after]))
  const scratch = await mkdtemp(join(dirname(backup.file), '.purge-'))
  try {
    const notes: NoteFile[] = []
    for (const [path, content] of files) {
      const file = join(scratch, 'tree', ...path.split('/'))
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, after.get(path) ?? content)
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
