// Review of a held run: apply its staged result (only onto the files it started from) or discard it.
import { DreamlaneError, LockHeldError } from '../errors.js'
import type { RunRecord } from '../dream/types.js'
import { putBack } from '../ledger/put-back.js'
import {
  readStage,
  readStagedSide,
  removeStage,
  markStageSettled,
  listStages,
  type StageManifest,
  type StagedFile,
} from '../ledger/stage.js'
import {
  carryOut,
  describeConflicts,
  markWritten,
  planTransition,
  type Transition,
} from '../ledger/transition.js'
import { withWorkspaceLock } from '../notes/lock.js'
import type { ReviewDeps } from './deps.js'

export interface ReviewResult {
  run: RunRecord
  /** Workspace-relative paths written now. */
  written: string[]
  /** Already on the target side (a repeated or interrupted action). */
  unchanged: string[]
  /** Discard only: files someone changed since, left as they are. */
  leftAlone: string[]
  message: string
}

const forward = (file: StagedFile): Transition => ({ path: file.path, from: file.before, to: file.after })

/** The held run `id`, or the newest held run; anything else cannot be applied or discarded. */
export function pickHeldRun(
  deps: ReviewDeps,
  id: string | undefined,
  action: 'apply' | 'discard',
): RunRecord {
  const run = id ? deps.runs.get(id) : deps.runs.list({ status: ['held'], limit: 1 })[0]
  if (!run)
    throw new DreamlaneError(
      'RUN_NOT_REVIEWABLE',
      `no dream is waiting for review, so there is nothing to ${action}`,
    )
  if (run.status !== 'held') {
    const done = action === 'apply' ? 'applied' : 'discarded'
    throw new DreamlaneError(
      'RUN_NOT_REVIEWABLE',
      `run ${run.id} is ${run.status}, not held for review; only a held run can be ${done}`,
    )
  }
  return run
}

async function stageOf(deps: ReviewDeps, run: RunRecord): Promise<StageManifest> {
  const stage = await readStage(deps.paths, run.id)
  if (!stage)
    throw new DreamlaneError(
      'RUN_NOT_REVIEWABLE',
      `the staged result of ${run.id} is missing from ${deps.paths.dataDir}; discard it and dream again`,
    )
  return stage
}

/**
 * Writes a held run's result, after checking under the lock that every file it changes is still exactly
 * as the run found it. Any difference refuses the whole apply (nothing written): the dream worked from
 * notes that no longer exist. Files already holding the result count as done, so an interrupted apply
 * can simply be repeated.
 */
export async function applyHeldRun(deps: ReviewDeps, id?: string): Promise<ReviewResult> {
  const chosen = pickHeldRun(deps, id, 'apply')
  return withWorkspaceLock(deps, `apply-${chosen.id}`, async () => {
    const run = pickHeldRun(deps, chosen.id, 'apply')
    const stage = await stageOf(deps, run)
    const files = new Map(stage.files.map((file) => [file.path, file]))
    const plan = await planTransition(deps.paths.workspace, stage.files.map(forward))
    if (plan.conflicts.length > 0) {
      const since = `since dream ${run.id} started (${run.startedAt ?? run.createdAt})`
      const detail = await describeConflicts(
        deps.paths.workspace,
        plan.conflicts,
        since,
        async (conflict) =>
          (
            await readStagedSide(deps.paths, run.id, 'before', files.get(conflict.path) as StagedFile)
          )?.toString('utf8') ?? null,
      )
      throw new DreamlaneError(
        'RUN_CONFLICT',
        `cannot apply ${run.id}: ${plan.conflicts.length} file(s) changed after the dream read them, and applying would overwrite that.\n${detail}\n` +
          `Nothing was written. Dream again (\`/dream\`, or \`dreamlane runs retry ${run.id}\`) to consolidate from the notes as they are now, and discard this one (\`/dream discard\`).`,
      )
    }
    const afterOf = (t: Transition) =>
      readStagedSide(deps.paths, run.id, 'after', files.get(t.path) as StagedFile)
    markWritten(deps, await carryOut(deps.paths.workspace, plan.pending, afterOf))
    const settled = deps.runs.settle(run.id, run.heldOutcome ?? 'succeeded')
    await removeStage(deps.paths, run.id)
    const written = plan.pending.map((t) => t.path)
    const already = plan.done.length ? `, ${plan.done.length} already up to date` : ''
    const message = `Applied dream ${run.id}: ${written.length} file(s) written${already}. Undo it with \`/dream undo\`.`
    return { run: settled, written, unchanged: plan.done.map((t) => t.path), leftAlone: [], message }
  })
}

/**
 * Drops a held run's result. The workspace already holds the before side; a file found on the after side
 * (a crash while the run was being held) is put back, and a file someone edited since is left alone.
 */
export async function discardHeldRun(deps: ReviewDeps, id?: string): Promise<ReviewResult> {
  const chosen = pickHeldRun(deps, id, 'discard')
  return withWorkspaceLock(deps, `discard-${chosen.id}`, async () => {
    const run = pickHeldRun(deps, chosen.id, 'discard')
    const stage = await readStage(deps.paths, run.id)
    const result = stage ? await putBack(deps, stage) : { written: [], unchanged: [], leftAlone: [] }
    const settled = deps.runs.settle(run.id, 'discarded')
    await removeStage(deps.paths, run.id)
    return { run: settled, ...result, message: `Discarded dream ${run.id}; your notes stay as they were.` }
  })
}

/**
 * Start-up recovery, after runs left `running` were marked lost: a run that crashed or failed while being held
 * (its result still in the workspace, the stage unsettled) gets the workspace put back; stages of runs no
 * longer held (applied or discarded just before a crash, lost, failed) are then removed. Skipped while a dream holds the
 * lock. Returns the run ids whose stage it settled or removed.
 */
export async function settlePendingStages(deps: ReviewDeps): Promise<string[]> {
  const touched: string[] = []
  for (const runId of await listStages(deps.paths)) {
    try {
      const acted = await withWorkspaceLock(deps, `settle-${runId}`, () => settleStage(deps, runId))
      if (acted) touched.push(runId)
    } catch (error) {
      if (!(error instanceof LockHeldError)) throw error
    }
  }
  return touched
}

async function settleStage(deps: ReviewDeps, runId: string): Promise<boolean> {
  const stage = await readStage(deps.paths, runId)
  const status = runStatus(deps, runId)
  if (status === 'running' || (status === 'held' && stage?.settled)) return false
  // Unsettled means the hold began but the notes may not all be back: the before side is what holding promised.
  if (stage && !stage.settled) await putBack(deps, stage)
  if (stage && status === 'held') await markStageSettled(deps.paths, stage)
  else await removeStage(deps.paths, runId)
  return true
}

function runStatus(deps: ReviewDeps, runId: string): RunRecord['status'] | null {
  try {
    return deps.runs.get(runId).status
  } catch {
    return null
  }
}
