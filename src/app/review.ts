// Use cases on a finished dream: apply or discard a held one, undo a kept one, rehearse one (dry run).
import type { DreamRequest } from '../dream/types.js'
import type { DreamDeps } from '../dream/deps.js'
import { LedgerStore } from '../ledger/store.js'
import type { FileChange } from '../ledger/types.js'
import type { DryRunResult } from '../review/dry-run.js'
import type { ReviewResult } from '../review/review.js'
import type { UndoOptions, UndoResult } from '../review/undo.js'
import type { ReviewContext } from './context.js'

export type { DryRunResult, ReviewResult, UndoOptions, UndoResult }

// A run is marked held a moment before it releases the lock; review actions from this process wait for the
// dream in flight to finish instead of failing on that lock. Each action takes the lock itself.
// The review modules (diffs, zip reading) are imported when an action runs, not by every process that opens a Dreamlane.

/** Writes held run `id` (default: the newest held run) if its files are still as the dream found them. */
export async function applyRun(ctx: ReviewContext, id?: string): Promise<ReviewResult> {
  await ctx.dreams?.idle()
  const { applyHeldRun } = await import('../review/review.js')
  return applyHeldRun(ctx, id)
}

/** Drops held run `id` (default: the newest held run); the notes stay as they are. */
export async function discardRun(ctx: ReviewContext, id?: string): Promise<ReviewResult> {
  await ctx.dreams?.idle()
  const { discardHeldRun } = await import('../review/review.js')
  return discardHeldRun(ctx, id)
}

/** Restores what kept dream `id` (default: the newest) changed, unless edited since (`force`: anyway, after a backup). */
export async function undoDream(ctx: ReviewContext, id?: string, options?: UndoOptions): Promise<UndoResult> {
  await ctx.dreams?.idle()
  const { undoRun } = await import('../review/undo.js')
  return undoRun(ctx, id, options)
}

/**
 * Runs `request` on a scratch copy of the notes and returns the diff it would make; touches nothing. `deps`
 * should carry the host's own event listener only: a rehearsal's finished event must not schedule retries.
 */
export async function dryRun(deps: DreamDeps, request: Omit<DreamRequest, 'dryRun'>): Promise<DryRunResult> {
  const { dryRunDream } = await import('../review/dry-run.js')
  return dryRunDream(request, deps)
}

/** Run `id`'s change ledger: per file, before/after sha256, line counts and the unified diff. */
export function listChanges(ctx: Pick<ReviewContext, 'state' | 'runs'>, id: string): FileChange[] {
  return new LedgerStore(ctx.state).list(ctx.runs.get(id).id)
}
