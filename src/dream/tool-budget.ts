// How many tool calls a dream's engines get: the model what dream.maxToolCalls allows, the offline fallback its own.
import type { ResolvedConfig } from '../config/schema.js'
import type { DayWindow } from '../time/local-day.js'

/**
 * Tool calls each window day may need on top of `dream.maxToolCalls`: its daily note read and written, and a
 * page of its messages read. Without them a year-long window could not even read its notes.
 */
export const TOOL_CALLS_PER_DAY = 3

/**
 * The offline fallback's base budget, whatever `dream.maxToolCalls` says: that setting caps what a model may
 * spend, and the model may have spent it all. The offline engine costs no tokens and was sized for the default
 * budget (400 calls plus three per day), so it gets at least that.
 */
export const FALLBACK_TOOL_CALLS = 400

/** A dream turn's tool-call budget: `dream.maxToolCalls` plus TOOL_CALLS_PER_DAY for every window day. */
export function toolBudgetFor(config: ResolvedConfig, window: DayWindow): number {
  return config.dream.maxToolCalls + TOOL_CALLS_PER_DAY * window.days.length
}

/** The offline fallback's own budget: never less than the engine was sized for. */
export function fallbackToolBudgetFor(config: ResolvedConfig, window: DayWindow): number {
  return Math.max(config.dream.maxToolCalls, FALLBACK_TOOL_CALLS) + TOOL_CALLS_PER_DAY * window.days.length
}
