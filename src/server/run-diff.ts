// A run's diff of notes: the change ledger the run recorded, or (runs without one) its backup vs the next backup or now.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parsePatch, structuredPatch } from 'diff'
import { listBackups, type BackupSummary } from '../backup/list.js'
import { isSafeBackupPath } from '../backup/manifest.js'
import { visitBackupFiles } from '../backup/verify.js'
import type { RunRecord } from '../dream/types.js'
import type { FileChange } from '../ledger/types.js'
import type { WorkspacePaths } from '../notes/paths.js'
import type { SecretKind } from '../secrets/types.js'
import { withholdSecrets } from '../secrets/withhold.js'
import { workspacePath } from './run-view.js'

/** Files bigger than this on either side are listed without a line diff. */
const MAX_DIFF_BYTES = 512 * 1024
const CONTEXT_LINES = 3

export interface DiffHunk {
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  /** Unified-diff lines: ' ' context, '-' removed, '+' added (and '\' no-newline markers). */
  lines: string[]
}

export interface FileDiff {
  path: string
  change: 'added' | 'removed' | 'modified' | 'unchanged'
  additions: number
  deletions: number
  hunks: DiffHunk[]
  tooLarge: boolean
}

/**
 * What "after" is: the run's own change ledger (exact, also for held runs), the next backup (the state the run
 * left), or the files as they are now.
 */
export type DiffTarget =
  { kind: 'recorded' } | { kind: 'next-backup'; backupId: string; createdAt: string } | { kind: 'current' }

export interface RunDiff {
  available: boolean
  /** Why no diff could be made, in words. */
  reason: string | null
  /** The run's pre-dream backup. */
  before: { backupId: string } | null
  after: DiffTarget | null
  files: FileDiff[]
}

/**
 * `recorded` is the run's change ledger (`dreamlane.changes(id)`); runs that have one are shown exactly as recorded
 * (the ledger withheld its secrets as it stored them). Others are compared from backups, whose notes may predate
 * the dream that cleaned a secret: both sides are withheld, but for the kinds the user keeps (`keepKinds`).
 */
export async function diffRun(
  paths: WorkspacePaths,
  run: RunRecord,
  recorded: readonly FileChange[] = [],
  keepKinds: readonly SecretKind[] = [],
): Promise<RunDiff> {
  if (recorded.length > 0) return fromLedger(run, recorded)
  if (!run.backupId)
    return unavailable(
      'this run took no backup (it stopped before the backup step), so there is nothing to compare',
    )
  const backups = await listBackups(paths)
  const own = backups.findIndex((backup) => backup.id === run.backupId)
  const base = backups[own]
  if (!base)
    return unavailable(`backup ${run.backupId} is gone (pruned: only the newest ${backups.length} are kept)`)
  const changed = [...new Set(run.changedFiles.map((file) => workspacePath(paths.workspace, file)))]
    .filter(isSafeBackupPath)
    .sort()
  const next = run.finishedAt ? nextBackup(backups.slice(0, own), run.finishedAt) : undefined
  const after: DiffTarget = next
    ? { kind: 'next-backup', backupId: next.id, createdAt: next.createdAt }
    : { kind: 'current' }
  const before = await readFromBackup(base.file, changed)
  const afterFiles = next ? await readFromBackup(next.file, changed) : await readFromWorkspace(paths, changed)
  const shown = (text: string | undefined) =>
    text === undefined ? null : withholdSecrets(text, { keepKinds }).text
  const files = changed.map((path) => diffFile(path, shown(before.get(path)), shown(afterFiles.get(path))))
  return { available: true, reason: null, before: { backupId: base.id }, after, files }
}

/**
 * The oldest backup taken after the run finished (newer backups come first in `newer`). Backup names have
 * second precision, so the finish time is compared at that precision too.
 */
function nextBackup(newer: readonly BackupSummary[], finishedAt: string): BackupSummary | undefined {
  const finished = Math.floor(Date.parse(finishedAt) / 1000) * 1000
  return newer.filter((backup) => Date.parse(backup.createdAt) >= finished).at(-1)
}

async function readFromBackup(file: string, wanted: readonly string[]): Promise<Map<string, string>> {
  const keep = new Set(wanted)
  const files = new Map<string, string>()
  // Streams the archive and keeps only the changed files, so memory follows the diff, not the notes tree.
  await visitBackupFiles(file, (entry, content) => {
    if (keep.has(entry.path)) files.set(entry.path, content.toString('utf8'))
  })
  return files
}

async function readFromWorkspace(
  paths: WorkspacePaths,
  wanted: readonly string[],
): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const path of wanted) {
    try {
      files.set(path, await readFile(join(paths.workspace, ...path.split('/')), 'utf8'))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return files
}

export function diffFile(path: string, before: string | null, after: string | null): FileDiff {
  const change: FileDiff['change'] =
    before === null ? 'added' : after === null ? 'removed' : before === after ? 'unchanged' : 'modified'
  const empty = { path, change, additions: 0, deletions: 0, hunks: [] }
  if (change === 'unchanged' || (before === null && after === null)) return { ...empty, tooLarge: false }
  if (Buffer.byteLength(before ?? '') > MAX_DIFF_BYTES || Buffer.byteLength(after ?? '') > MAX_DIFF_BYTES)
    return { ...empty, tooLarge: true }
  const patch = structuredPatch(path, path, before ?? '', after ?? '', undefined, undefined, {
    context: CONTEXT_LINES,
  })
  const hunks = patch.hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({
    oldStart,
    oldLines,
    newStart,
    newLines,
    lines,
  }))
  const count = (mark: string) =>
    hunks.reduce((sum, hunk) => sum + hunk.lines.filter((line) => line.startsWith(mark)).length, 0)
  return { path, change, additions: count('+'), deletions: count('-'), hunks, tooLarge: false }
}

function fromLedger(run: RunRecord, changes: readonly FileChange[]): RunDiff {
  const files = changes.map((change): FileDiff => {
    const hunks = change.diff ? (parsePatch(change.diff)[0]?.hunks ?? []) : []
    return {
      path: change.path,
      change: change.change,
      additions: change.linesAdded,
      deletions: change.linesRemoved,
      hunks: hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({
        oldStart,
        oldLines,
        newStart,
        newLines,
        lines,
      })),
      tooLarge: change.tooLarge,
    }
  })
  return {
    available: true,
    reason: null,
    before: run.backupId ? { backupId: run.backupId } : null,
    after: { kind: 'recorded' },
    files,
  }
}

function unavailable(reason: string): RunDiff {
  return { available: false, reason, before: null, after: null, files: [] }
}
