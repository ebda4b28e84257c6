// Turn budget arithmetic: max_tokens sizing, token and tool-call budgets, and the whole-turn deadline.
import { describe, expect, it } from 'vitest'
import { startTurnDeadline, TurnLimits } from '../../src/model/limits.js'
import { EMPTY_USAGE } from '../../src/model/provider.js'
import { BUDGET } from './provider-world.js'

describe('TurnLimits', () => {
  it('sizes max_tokens by the per-request cap, the output budget and the total budget', () => {
    const limits = new TurnLimits({ ...BUDGET, maxOutputTokens: 3000, maxTotalTokens: 20_000 }, 2048)
    expect(limits.nextMaxTokens(1000)).toBe(2048)
    limits.recordUsage({ ...EMPTY_USAGE, outputTokens: 1500, inputTokens: 1000, requests: 1 })
    expect(limits.nextMaxTokens(1000)).toBe(1500)
    expect(limits.nextMaxTokens(16_800)).toBe(700)
    expect(limits.nextMaxTokens(17_460)).toBeNull()
    expect(limits.isTokenBudgetSpent()).toBe(false)
    limits.recordUsage({ ...EMPTY_USAGE, outputTokens: 1500 })
    expect(limits.isTokenBudgetSpent()).toBe(true)
    expect(limits.nextMaxTokens(0)).toBeNull()
  })

  it('counts cache writes in full and cache reads at a tenth toward the total budget', () => {
    const limits = new TurnLimits({ ...BUDGET, maxTotalTokens: 10_000 }, 4096)
    limits.recordUsage({ ...EMPTY_USAGE, cacheWriteTokens: 4000, cacheReadTokens: 50_000 })
    expect(limits.isTokenBudgetSpent()).toBe(false)
    expect(limits.nextMaxTokens(0)).toBe(1000)
    limits.recordUsage({ ...EMPTY_USAGE, cacheReadTokens: 10_000 })
    expect(limits.isTokenBudgetSpent()).toBe(true)
  })

  it('hands out exactly maxToolCalls calls', () => {
    const limits = new TurnLimits({ ...BUDGET, maxToolCalls: 2 }, 4096)
    expect([limits.takeToolCall(), limits.takeToolCall(), limits.takeToolCall()]).toEqual([true, true, false])
    expect(limits.toolCalls).toBe(2)
  })
})

describe('TurnLimits#lowBudgetNote', () => {
  it('stays silent while every budget has a quarter left, then names all three', () => {
    const limits = new TurnLimits(
      { ...BUDGET, maxToolCalls: 100, maxTotalTokens: 10_000, maxOutputTokens: 4000 },
      4096,
    )
    limits.recordUsage({ ...EMPTY_USAGE, inputTokens: 6000, outputTokens: 1000 })
    expect(limits.lowBudgetNote()).toBeNull()
    limits.recordUsage({ ...EMPTY_USAGE, inputTokens: 1600 })
    expect(limits.lowBudgetNote()).toBe(
      '[budget low: 100 of 100 tool calls, 1,400 of 10,000 tokens, 3,000 of 4,000 output tokens left; ' +
        'finish the open days (finish_day) before anything else]',
    )
  })

  it('speaks up when output tokens alone run low', () => {
    const limits = new TurnLimits({ ...BUDGET, maxOutputTokens: 4000 }, 4096)
    limits.recordUsage({ ...EMPTY_USAGE, outputTokens: 3100 })
    expect(limits.lowBudgetNote()).toMatch(/900 of 4,000 output tokens left/)
  })
})

describe('startTurnDeadline', () => {
  it('aborts on the timeout and says so', async () => {
    const deadline = startTurnDeadline(20, new AbortController().signal)
    await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve))
    expect(deadline.hasTimedOut()).toBe(true)
    deadline.dispose()
  })

  it('aborts with the caller and does not call that a timeout, even after the timer passes', async () => {
    const outer = new AbortController()
    const deadline = startTurnDeadline(20, outer.signal)
    outer.abort()
    expect(deadline.signal.aborted).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(deadline.hasTimedOut()).toBe(false)
    deadline.dispose()
  })
})
