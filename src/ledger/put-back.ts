// Puts a staged run's files back on their before side: holding a run, discarding it, recovering after a crash.
import { readStagedSide, type StageManifest, type StagedFile } from './stage.js'
import { carryOut, markWritten, planTransition, type LedgerDeps, type Transition } from './transition.js'

/** Workspace-relative paths, sorted by what putting back found on disk. */
export interface PutBackResult {
  /** Written now. */
  written: string[]
  /** Already on the before side (a repeated or interrupted action). */
  unchanged: string[]
  /** Changed by someone since, left as they are. */
  leftAlone: string[]
}

const backward = (file: StagedFile): Transition => ({ path: file.path, from: file.after, to: file.before })

/** Puts every staged file that holds the after side back to its before side (the caller holds the lock). */
export async function putBack(deps: LedgerDeps, stage: StageManifest): Promise<PutBackResult> {
  const files = new Map(stage.files.map((file) => [file.path, file]))
  const plan = await planTransition(deps.paths.workspace, stage.files.map(backward))
  const beforeOf = (t: Transition) =>
    readStagedSide(deps.paths, stage.runId, 'before', files.get(t.path) as StagedFile)
  markWritten(deps, await carryOut(deps.paths.workspace, plan.pending, beforeOf))
  return {
    written: plan.pending.map((t) => t.path),
    unchanged: plan.done.map((t) => t.path),
    leftAlone: plan.conflicts.map((c) => c.path),
  }
}
