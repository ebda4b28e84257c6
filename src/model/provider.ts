// The provider interface: one tool-use turn against a ToolSet, bounded by a budget and an AbortSignal.
import { DreamlaneError, errorMessage } from '../errors.js'
import type { ToolSet } from '../tools/types.js'
import type { WordCounts } from './offline/word-weights.js'

export interface TurnBudget {
  maxToolCalls: number
  maxTotalTokens: number
  maxOutputTokens: number
  timeoutMs: number
}

/** A run on the dream lane: a dream (manual, auto, bootstrap) or a promotion sweep (light, deep, rem). */
export type DreamMode = 'manual' | 'auto' | 'bootstrap' | 'light' | 'deep' | 'rem'

/** Structured facts about the run, for providers that do not read prose (the offline engine). */
export interface TurnContext {
  runId: string
  mode: DreamMode
  chatJid: string
  /** Local days of the window, oldest first, in `timeZone`. */
  days: string[]
  timeZone: string
  /** ISO UTC "now" at the start of the run. */
  now: string
  /**
   * How many of the user's messages just before the window use each word, for a provider that `weighsWords`: a
   * night's window alone cannot tell the day's subject from everyday chat. Counts only, never the messages.
   */
  wordHistory?: WordCounts
}

export interface TurnInput {
  /** System prompt (skills/dream/SKILL.md). */
  system: string
  /** The run header (`dream N` / `auto dream N` / `bootstrap`) and instructions for this run. */
  prompt: string
  context: TurnContext
  budget: TurnBudget
  model?: string
}

export interface TurnUsage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  requests: number
}

export const EMPTY_USAGE: TurnUsage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  requests: 0,
}

export type TranscriptEntry =
  | { kind: 'text'; role: 'assistant' | 'user'; text: string }
  | { kind: 'tool_call'; name: string; input: unknown }
  | { kind: 'tool_result'; name: string; ok: boolean; content: string }

/** Why the turn stopped: the model finished, a budget limit hit, or the signal aborted it. */
export type TurnStop = 'end' | 'limit' | 'aborted'

export interface TurnResult {
  stop: TurnStop
  /** Which limit, when `stop` is 'limit'. */
  limit?: 'tool_calls' | 'tokens' | 'timeout'
  /** The model's final text (becomes part of the posted summary). */
  text: string
  transcript: TranscriptEntry[]
  usage: TurnUsage
}

/** What a turn did before it failed: the record keeps its requests, tokens and transcript all the same. */
export type PartialTurn = Pick<TurnResult, 'text' | 'transcript' | 'usage'>

/**
 * A turn that failed part way (a request that still failed after retries). Keeps the failure's code and words,
 * and what the turn had done until then, so a failed dream's record still shows what it spent.
 */
export class TurnFailedError extends DreamlaneError {
  readonly partial: PartialTurn
  constructor(cause: unknown, partial: PartialTurn) {
    super(cause instanceof DreamlaneError ? cause.code : 'PROVIDER_FAILED', errorMessage(cause), { cause })
    this.partial = partial
  }
}

/** What a failed turn had done, when its provider told; null when it threw without saying. */
export function partialTurnOf(error: unknown): PartialTurn | null {
  return error instanceof TurnFailedError ? error.partial : null
}

export interface ModelProvider {
  /** 'anthropic' | 'openai-compatible' | 'offline' | 'scripted' */
  readonly name: string
  readonly model?: string
  /**
   * Messages per get_messages page this provider can take in. A model with a context window to fill leaves it
   * unset and pages by config.tools.maxResults; the offline engine reads in bulk.
   */
  readonly messagePageMax?: number
  /** True for an engine that weighs words by how common they are: its turns get `context.wordHistory`. */
  readonly weighsWords?: boolean
  /** One tool-use turn: calls `tools` until the model stops, a limit is hit, or `signal` aborts. */
  runTurn(input: TurnInput, tools: ToolSet, signal: AbortSignal): Promise<TurnResult>
  /**
   * Gets ready for a turn that is coming (a worker thread loads its libraries meanwhile), so a dream's backup and
   * seeding overlap it. Optional; a turn never depends on it.
   */
  prepare?(): void
}

/** What the lifecycle reads off a provider before its first turn, known without loading it. */
export type ProviderTraits = Pick<ModelProvider, 'messagePageMax' | 'weighsWords'>

/** `traits` without its unset fields, to spread into a provider. */
export function traitsOf(traits: ProviderTraits = {}): ProviderTraits {
  return {
    ...(traits.messagePageMax !== undefined ? { messagePageMax: traits.messagePageMax } : {}),
    ...(traits.weighsWords !== undefined ? { weighsWords: traits.weighsWords } : {}),
  }
}

export function addUsage(a: TurnUsage, b: TurnUsage): TurnUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    requests: a.requests + b.requests,
  }
}

/** "1200 fresh input, 5000 cache read, 800 cache write, 300 output tokens in 3 request(s)": each kind apart. */
export function describeUsage(usage: TurnUsage): string {
  return (
    `${usage.inputTokens} fresh input, ${usage.cacheReadTokens} cache read, ${usage.cacheWriteTokens} cache write, ` +
    `${usage.outputTokens} output tokens in ${usage.requests} request(s)`
  )
}
