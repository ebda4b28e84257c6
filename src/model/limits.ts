// Per-turn budget tracking: tool calls, output and total tokens, and the whole-turn deadline.
import { addUsage, EMPTY_USAGE, type TurnBudget, type TurnUsage } from './provider.js'

/** Rough token count of serialised text: about four characters per token for English and JSON. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4)
}

/** Cache reads are billed at a tenth of fresh input, and count toward the token budget at that weight. */
export const CACHE_READ_WEIGHT = 0.1

/**
 * What a turn's usage weighs against maxTotalTokens: fresh input, cache writes and output in full, cache
 * reads at a tenth. Counting them whole would make a cached 7-day dream (≈400k raw tokens, most of them
 * re-reads of the same prefix) look ten times costlier than it is and trip the budget for nothing.
 */
export function budgetTokensOf(usage: TurnUsage): number {
  const full = usage.inputTokens + usage.cacheWriteTokens + usage.outputTokens
  return full + Math.ceil(usage.cacheReadTokens * CACHE_READ_WEIGHT)
}

/** Below this share left of a budget, every tool result says what remains (see TurnLimits#lowBudgetNote). */
export const LOW_BUDGET_SHARE = 0.25

/** Fewer output tokens than this left for a request is not worth a round trip. */
const MIN_USEFUL_OUTPUT_TOKENS = 64

/** Counts what a turn has used against its budget and sizes each request to what is left. */
export class TurnLimits {
  readonly #budget: TurnBudget
  readonly #maxTokensPerRequest: number
  #usage: TurnUsage = { ...EMPTY_USAGE }
  #toolCalls = 0

  constructor(budget: TurnBudget, maxTokensPerRequest: number) {
    this.#budget = budget
    this.#maxTokensPerRequest = maxTokensPerRequest
  }

  get usage(): TurnUsage {
    return { ...this.#usage }
  }

  get toolCalls(): number {
    return this.#toolCalls
  }

  recordUsage(usage: TurnUsage): void {
    this.#usage = addUsage(this.#usage, usage)
  }

  /** Counts one tool call; false when the budget has none left (the call must not run). */
  takeToolCall(): boolean {
    if (this.#toolCalls >= this.#budget.maxToolCalls) return false
    this.#toolCalls += 1
    return true
  }

  /**
   * `max_tokens` for the next request whose input is about `inputTokens`, or null when the output or
   * total budget cannot fit a useful reply (the turn stops with limit 'tokens' instead of sending).
   */
  nextMaxTokens(inputTokens: number): number | null {
    const outputLeft = this.#budget.maxOutputTokens - this.#usage.outputTokens
    const totalLeft = this.#budget.maxTotalTokens - budgetTokensOf(this.#usage) - inputTokens
    const maxTokens = Math.min(this.#maxTokensPerRequest, outputLeft, totalLeft)
    return maxTokens >= Math.min(MIN_USEFUL_OUTPUT_TOKENS, this.#maxTokensPerRequest) ? maxTokens : null
  }

  /**
   * One line for the next tool result once tool calls, tokens or output tokens run low (under LOW_BUDGET_SHARE
   * left), so the model can finish its open days before a limit ends the turn; null while all are ample.
   */
  lowBudgetNote(): string | null {
    const b = this.#budget
    const left = {
      calls: b.maxToolCalls - this.#toolCalls,
      tokens: b.maxTotalTokens - budgetTokensOf(this.#usage),
      output: b.maxOutputTokens - this.#usage.outputTokens,
    }
    const isLow =
      left.calls < b.maxToolCalls * LOW_BUDGET_SHARE ||
      left.tokens < b.maxTotalTokens * LOW_BUDGET_SHARE ||
      left.output < b.maxOutputTokens * LOW_BUDGET_SHARE
    if (!isLow) return null
    const n = (value: number): string => Math.max(0, value).toLocaleString('en-US')
    return (
      `[budget low: ${n(left.calls)} of ${n(b.maxToolCalls)} tool calls, ${n(left.tokens)} of ` +
      `${n(b.maxTotalTokens)} tokens, ${n(left.output)} of ${n(b.maxOutputTokens)} output tokens left; ` +
      'finish the open days (finish_day) before anything else]'
    )
  }

  /** True once either token budget is used up. */
  isTokenBudgetSpent(): boolean {
    return (
      this.#usage.outputTokens >= this.#budget.maxOutputTokens ||
      budgetTokensOf(this.#usage) >= this.#budget.maxTotalTokens
    )
  }
}

/** The turn's own signal: aborts on the caller's signal or when the whole-turn timeout passes. */
export interface TurnDeadline {
  signal: AbortSignal
  /** True when the timeout (not the caller) ended the turn. */
  hasTimedOut(): boolean
  dispose(): void
}

export function startTurnDeadline(timeoutMs: number, outer: AbortSignal): TurnDeadline {
  const controller = new AbortController()
  // Whichever fires first decides how the turn ends: 'limit' (timeout) or 'aborted' (caller).
  let endedBy: 'timeout' | 'caller' | null = null
  const onOuterAbort = (): void => {
    endedBy ??= 'caller'
    controller.abort(outer.reason)
  }
  const timer = setTimeout(() => {
    endedBy ??= 'timeout'
    controller.abort(new Error(`turn timeout of ${timeoutMs} ms passed`))
  }, timeoutMs)
  if (outer.aborted) onOuterAbort()
  else outer.addEventListener('abort', onOuterAbort, { once: true })
  return {
    signal: controller.signal,
    hasTimedOut: () => endedBy === 'timeout',
    dispose: () => {
      clearTimeout(timer)
      outer.removeEventListener('abort', onOuterAbort)
    },
  }
}
