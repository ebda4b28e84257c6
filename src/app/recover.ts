// Use case: start-up recovery of a workspace after a crash (locks, lost runs, channels, held runs' stages).
import { recoverWorkspace, type RecoveryReport } from '../dream/recover.js'
import type { AppContext } from './context.js'

export type { RecoveryReport }

/** Reaps a stale lock, marks abandoned runs lost, removes leftover channels, then settles held runs' stages. */
export async function recover(ctx: AppContext): Promise<RecoveryReport> {
  const report = await recoverWorkspace(ctx)
  // After lost runs are marked: a run that crashed while being held gets its notes put back.
  const { settlePendingStages } = await import('../review/review.js')
  await settlePendingStages(ctx)
  return report
}
