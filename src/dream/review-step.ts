// A dream's review step: record the ledger and loss-guard findings, then keep the result or stage it and put the notes back.
import { assessChanges, type AssessInput } from '../ledger/keep-or-hold.js'
import { describeCounts } from '../ledger/ledger.js'
import { putBack } from '../ledger/put-back.js'
import { markStageSettled, writeStage } from '../ledger/stage.js'
import { LedgerStore } from '../ledger/store.js'
import type { ChangeTotals } from '../ledger/types.js'
import type { DreamDeps } from './deps.js'
import type { HeldOutcome } from './types.js'

export interface ReviewStepInput extends AssessInput {
  runId: string
  /** The status the run earns when its changes are kept. */
  outcome: HeldOutcome
}

export interface ReviewStepResult {
  held: boolean
  totals: ChangeTotals
  reasons: string[]
  describe: string
}

export async function keepOrHold(
  input: ReviewStepInput,
  deps: Pick<DreamDeps, 'paths' | 'config' | 'clock' | 'state' | 'runs'>,
): Promise<ReviewStepResult> {
  const { paths, config } = deps
  const assessment = await assessChanges(input, paths, config.dream, config.privacy.keepSecretKinds)
  const { totals, reasons } = assessment
  new LedgerStore(deps.state).save(input.runId, assessment.changes, config.privacy.keepSecretKinds)
  deps.runs.update(input.runId, { changes: totals, lossFlags: assessment.flags, holdReasons: reasons })
  const counts = describeCounts(totals)
  const dropped = assessment.flags.filter((flag) => flag.kind === 'fact').length
  const checked = assessment.factsChecked
    ? `; loss guard checked ${assessment.factsChecked} keyed fact(s), ${dropped} dropped`
    : ''
  if (reasons.length === 0) {
    const flagged = assessment.flaggedCount
      ? `; loss guard flagged ${assessment.flaggedCount} item(s) (review: ${config.dream.review})`
      : ''
    return { held: false, totals, reasons, describe: `kept: ${counts}${checked}${flagged}` }
  }
  // Stage first, then mark held, then put the files back: a crash at any point leaves a state that
  // apply, discard or start-up recovery completes (see settlePendingStages).
  const stage = await writeStage(paths, input.runId, assessment.contents, deps.clock)
  deps.runs.markHeld(input.runId, input.outcome)
  await putBack(deps, stage)
  await markStageSettled(paths, stage)
  return {
    held: true,
    totals,
    reasons,
    describe: `held for review: ${counts}${checked}; ${reasons.join('; ')}`,
  }
}
