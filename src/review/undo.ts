// Undo of a kept dream: restore its files from the pre-dream backup unless edited since; recorded as a run.
import { applyPatch } from 'diff'
import { createBackup } from '../backup/create.js'
import { findBackup } from '../backup/list.js'
import type { RunRecord } from '../dream/types.js'
import { DreamlaneError } from '../errors.js'
import { readBackupEntries } from '../ledger/backup-entries.js'
import { absolutePath, putFile, readOrNull } from '../ledger/files.js'
import { describeChange, describeCounts } from '../ledger/ledger.js'
import { totalsOf } from '../ledger/keep-or-hold.js'
import { LedgerStore } from '../ledger/store.js'
import { describeConflicts, markWritten, planTransition, type Transition } from '../ledger/transition.js'
import type { FileChange } from '../ledger/types.js'
import { assertWritable } from '../notes/atomic-write.js'
import { withWorkspaceLock } from '../notes/lock.js'
import type { ReviewDeps } from './deps.js'

export interface UndoOptions {
  /** Restore files edited since the dream too, after a safety backup of the notes as they are. */
  force?: boolean
}

export interface UndoResult {
  /** The undo's own run record. */
  run: RunRecord
  /** The dream that was undone, now `undone`. */
  target: RunRecord
  restored: string[]
  /** Files already as they were before the dream. */
  unchanged: string[]
  /** Files edited since the dream that --force overwrote (kept in the safety backup). */
  overwritten: string[]
  safetyBackupId: string | null
  message: string
}

const UNDOABLE: readonly RunRecord['status'][] = ['succeeded', 'degraded']

/** The dream `id`, or the newest kept dream that changed files; explains why anything else cannot be undone. */
export function pickUndoable(deps: ReviewDeps, id?: string): RunRecord {
  const run = id
    ? deps.runs.get(id)
    : deps.runs
        .list({ status: [...UNDOABLE], kind: 'dream', limit: 50 })
        .find((r) => (r.changes?.files ?? 0) > 0)
  if (!run) throw new DreamlaneError('RUN_NOT_REVIEWABLE', 'no kept dream with changes to undo')
  if (run.kind !== 'dream')
    throw new DreamlaneError(
      'RUN_NOT_REVIEWABLE',
      `${run.id} is itself an undo (of ${run.undoOf}); dream again instead`,
    )
  if (run.status === 'held')
    throw new DreamlaneError(
      'RUN_NOT_REVIEWABLE',
      `${run.id} is held for review and wrote nothing; discard it instead (\`/dream discard\`)`,
    )
  if (run.status === 'undone')
    throw new DreamlaneError(
      'RUN_NOT_REVIEWABLE',
      `${run.id} was already undone (by ${run.undoneBy ?? 'an earlier undo'})`,
    )
  if (!UNDOABLE.includes(run.status))
    throw new DreamlaneError(
      'RUN_NOT_REVIEWABLE',
      `${run.id} is ${run.status}; only a kept dream (succeeded or degraded) can be undone`,
    )
  return run
}

export async function undoRun(deps: ReviewDeps, id?: string, options: UndoOptions = {}): Promise<UndoResult> {
  const chosen = pickUndoable(deps, id)
  return withWorkspaceLock(deps, `undo-${chosen.id}`, async () => {
    const target = pickUndoable(deps, chosen.id)
    const ledger = new LedgerStore(deps.state)
    const changes = ledger.list(target.id)
    if (changes.length === 0)
      throw new DreamlaneError(
        'RUN_NOT_REVIEWABLE',
        `${target.id} recorded no changed files, so there is nothing to undo`,
      )
    if (!target.backupId)
      throw new DreamlaneError('RUN_NOT_REVIEWABLE', `${target.id} took no backup to restore from`)
    const plan = await planTransition(deps.paths.workspace, changes.map(backwardOf))
    const byPath = new Map(changes.map((change) => [change.path, change]))
    const backup = await findBackup(deps.paths, target.backupId).catch((error: unknown) => {
      throw new DreamlaneError(
        'RUN_NOT_REVIEWABLE',
        `the pre-dream backup ${target.backupId} of ${target.id} is gone (only the newest ${deps.config.backups.keep} are kept)`,
        { cause: error },
      )
    })
    // Verified against the ledger's own before-hashes; files the dream created have nothing to read.
    const needed = [...plan.pending, ...plan.conflicts]
      .filter((t) => t.to !== null)
      .map((t) => [t.path, t.to as string] as const)
    const before = await readBackupEntries(backup.file, new Map(needed))
    if (plan.conflicts.length > 0 && !options.force) {
      const detail = await describeConflicts(
        deps.paths.workspace,
        plan.conflicts,
        `after dream ${target.id}`,
        async (conflict) =>
          dreamVersion(byPath.get(conflict.path) as FileChange, before.get(conflict.path) ?? null),
      )
      throw new DreamlaneError(
        'RUN_CONFLICT',
        `cannot undo ${target.id}: ${plan.conflicts.length} file(s) were changed after it, and undoing would lose that.\n${detail}\n` +
          `Nothing was restored. To restore anyway (a safety backup is taken first): \`dreamlane runs undo ${target.id} --force\` or \`/dream undo ${target.id} --force\`.`,
      )
    }
    const safety =
      plan.conflicts.length > 0
        ? await createBackup({
            paths: deps.paths,
            mode: 'undo',
            chatJid: target.chatJid,
            clock: deps.clock,
            keep: deps.config.backups.keep,
          })
        : null
    // A note the user made read-only since stops the undo before anything changes, not half-way.
    for (const transition of [...plan.pending, ...plan.conflicts])
      await assertWritable(absolutePath(deps.paths.workspace, transition.path))
    const undo = deps.runs.openUndo(target)
    const restoredChanges: FileChange[] = []
    const touched: string[] = []
    for (const transition of [...plan.pending, ...plan.conflicts]) {
      const file = absolutePath(deps.paths.workspace, transition.path)
      const now = await readOrNull(file)
      const restore = before.get(transition.path) ?? null
      await putFile(file, restore)
      touched.push(file)
      restoredChanges.push(describeChange({ path: transition.path, before: now, after: restore }))
    }
    markWritten(deps, touched)
    ledger.save(undo.id, restoredChanges, deps.config.privacy.keepSecretKinds)
    const totals = totalsOf(restoredChanges)
    deps.runs.update(undo.id, {
      changedFiles: touched,
      changes: totals,
      ...(safety ? { backupId: safety.id } : {}),
    })
    const settledTarget = deps.runs.settle(target.id, 'undone', undo.id)
    const forced = plan.conflicts.length
      ? ` ${plan.conflicts.length} edited file(s) overwritten; they are in the safety backup ${safety?.id}.`
      : ''
    const message = `Undid dream ${target.id}: ${describeCounts(totals)}.${forced}${plan.done.length ? ` ${plan.done.length} file(s) were already as before.` : ''}`
    const closed = deps.runs.close(undo.id, { status: 'succeeded', summary: message })
    return {
      run: closed,
      target: settledTarget,
      restored: plan.pending.map((t) => t.path),
      unchanged: plan.done.map((t) => t.path),
      overwritten: plan.conflicts.map((c) => c.path),
      safetyBackupId: safety?.id ?? null,
      message,
    }
  })
}

function backwardOf(change: FileChange): Transition {
  return { path: change.path, from: change.afterSha256, to: change.beforeSha256 }
}

/** What the dream left in a file: its backup text with the recorded diff applied (null when unknowable). */
function dreamVersion(change: FileChange, before: Buffer | null): string | null {
  if (change.afterSha256 === null || change.tooLarge) return null
  const result = applyPatch(before?.toString('utf8') ?? '', change.diff)
  return result === false ? null : result
}
