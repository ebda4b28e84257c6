// Use case: `memory promote`: score recalled chunks and, when asked, append the winners to MEMORY.md under the lock.
import type { promoteMemory as promote } from '../recall/promote.js'

export type { ApplyResult, PromotionPlan, PromoteOptions } from '../recall/promote.js'

export type PromoteResult = Awaited<ReturnType<typeof promote>>

/** Scores recalled chunks and, with `apply`, promotes the winners; the scoring code loads on first use. */
export async function promoteMemory(...args: Parameters<typeof promote>): Promise<PromoteResult> {
  return (await import('../recall/promote.js')).promoteMemory(...args)
}
