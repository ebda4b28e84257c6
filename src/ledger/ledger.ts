// The change ledger of one run: per changed file, before/after hashes and sizes, line counts and a unified diff.
import { isSafeBackupPath, type ManifestEntry } from '../backup/manifest.js'
import { toWorkspacePath } from '../fts/scope.js'
import { readBackupEntries } from './backup-entries.js'
import { diffTexts } from './diff.js'
import { absolutePath, readOrNull, sha256 } from './files.js'
import type { ChangedContent, FileChange } from './types.js'

/**
 * Before (from the run's pre-dream backup) and after (the workspace now) of every file the run wrote,
 * sorted by path. Files written back byte-identical are left out. Only the written files are read, so the
 * cost follows the change, not the notes tree. Paths outside notes/daily and notes/memory are ignored: no
 * dream tool can write there, and a backup could not restore them.
 */
export async function collectRunContents(
  workspace: string,
  backup: { file: string; manifest: readonly ManifestEntry[] },
  written: readonly string[],
): Promise<ChangedContent[]> {
  const paths = [...new Set(written.map((file) => toWorkspacePath(workspace, file)))]
    .filter((path): path is string => path !== undefined && isSafeBackupPath(path))
    .sort()
  const wanted = new Set(paths)
  const expected = new Map(
    backup.manifest.filter((entry) => wanted.has(entry.path)).map((entry) => [entry.path, entry.sha256]),
  )
  const before = await readBackupEntries(backup.file, expected)
  const contents: ChangedContent[] = []
  for (const path of paths) {
    const content = {
      path,
      before: before.get(path) ?? null,
      after: await readOrNull(absolutePath(workspace, path)),
    }
    if (!isSame(content.before, content.after)) contents.push(content)
  }
  return contents
}

/** The ledger row of one changed file. */
export function describeChange(content: ChangedContent): FileChange {
  const { path, before, after } = content
  const text = diffTexts(path, before?.toString('utf8') ?? null, after?.toString('utf8') ?? null)
  return {
    path,
    change: before === null ? 'added' : after === null ? 'removed' : 'modified',
    beforeSha256: before === null ? null : sha256(before),
    afterSha256: after === null ? null : sha256(after),
    beforeBytes: before?.length ?? 0,
    afterBytes: after?.length ?? 0,
    linesAdded: text.linesAdded,
    linesRemoved: text.linesRemoved,
    diff: text.diff,
    tooLarge: text.tooLarge,
  }
}

function isSame(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b)
}

/** "3 files changed, +12 −4" (the words the summary and the CLI share). */
export function describeCounts(changes: { files: number; linesAdded: number; linesRemoved: number }): string {
  if (changes.files === 0) return 'no files changed'
  return `${changes.files} file${changes.files === 1 ? '' : 's'} changed, +${changes.linesAdded} −${changes.linesRemoved}`
}
