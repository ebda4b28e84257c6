// Use case: `memory promote`: score recalled chunks and, when asked, append the winners to MEMORY.md under the lock.
import { promoteMemory } from '../recall/promote.js'

export type { ApplyResult, PromotionPlan, PromoteOptions } from '../recall/promote.js'

export type PromoteResult = Awaited<ReturnType<typeof promoteMemory>>

export { promoteMemory }
