// Moves files by hash from one known state to another: pending, already done, or changed by someone else.
import type { StateDb } from '../db/state.js'
import { markDirty } from '../fts/journal.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { diffTexts } from './diff.js'
import { absolutePath, currentSha256, putFile, readOrNull } from './files.js'

/** One file's move from hash `from` to hash `to` (null: the file is absent). */
export interface Transition {
  path: string
  from: string | null
  to: string | null
}

export interface Conflict extends Transition {
  /** Hash of what is there now. */
  now: string | null
}

export interface TransitionPlan {
  pending: Transition[]
  done: Transition[]
  conflicts: Conflict[]
}

/**
 * Sorts each file by what is on disk now. Writes are atomic, so after a crash every file is whole on one side
 * or the other, and planning the same transition again picks up exactly what is left.
 */
export async function planTransition(
  workspace: string,
  transitions: readonly Transition[],
): Promise<TransitionPlan> {
  const plan: TransitionPlan = { pending: [], done: [], conflicts: [] }
  for (const transition of transitions) {
    const now = await currentSha256(absolutePath(workspace, transition.path))
    if (now === transition.to) plan.done.push(transition)
    else if (now === transition.from) plan.pending.push(transition)
    else plan.conflicts.push({ ...transition, now })
  }
  return plan
}

/** Writes (or removes) each file to its `to` side; returns the absolute paths touched. */
export async function carryOut(
  workspace: string,
  transitions: readonly Transition[],
  contentOf: (transition: Transition) => Promise<Buffer | null>,
): Promise<string[]> {
  const touched: string[] = []
  for (const transition of transitions) {
    const file = absolutePath(workspace, transition.path)
    await putFile(file, await contentOf(transition))
    touched.push(file)
  }
  return touched
}

/** Diff lines shown per conflicting file. */
const CONFLICT_DIFF_LINES = 20

/**
 * "notes/memory/MEMORY.md was edited since …" for each conflict, with the start of a diff from `expected`
 * (what the file should hold) to what it holds now, so people see what would be lost.
 */
export async function describeConflicts(
  workspace: string,
  conflicts: readonly Conflict[],
  since: string,
  expected: (conflict: Conflict) => Promise<string | null>,
): Promise<string> {
  const parts: string[] = []
  for (const conflict of conflicts) {
    const now = await readOrNull(absolutePath(workspace, conflict.path))
    const before = await expected(conflict)
    parts.push(`${conflict.path} ${now === null ? 'was deleted' : 'was edited'} ${since}.`)
    if (before === null && conflict.from !== null) continue
    const diff = diffTexts(conflict.path, before, now?.toString('utf8') ?? null)
    const lines = diff.diff.split('\n').filter((line) => line !== '')
    parts.push(...lines.slice(0, CONFLICT_DIFF_LINES).map((line) => `    ${line}`))
    if (lines.length > CONFLICT_DIFF_LINES)
      parts.push(`    … ${lines.length - CONFLICT_DIFF_LINES} more diff line(s)`)
  }
  return parts.join('\n')
}

/** What moving files needs: where the workspace is, and the state DB whose FTS journal hears of each write. */
export interface LedgerDeps {
  paths: WorkspacePaths
  state: StateDb
}

/** The FTS journal learns about every file a review action wrote, so search never serves the old text. */
export function markWritten(deps: LedgerDeps, files: readonly string[]): void {
  if (files.length > 0) markDirty(deps.state, deps.paths.workspace, [...files])
}
