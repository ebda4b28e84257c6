// The provider-neutral tool-use loop: ask the model, run its tool calls, answer, until it stops or a limit hits.
import type { ToolSet } from '../tools/types.js'
import { estimateTokens, startTurnDeadline, TurnLimits, type TurnDeadline } from './limits.js'
import {
  TurnFailedError,
  type TranscriptEntry,
  type TurnInput,
  type TurnResult,
  type TurnUsage,
} from './provider.js'

/** One tool call as the model asked for it. */
export interface RequestedToolCall {
  id: string
  name: string
  input: unknown
  /** Set when the model's arguments could not be read (e.g. invalid JSON); told to the model with the result. */
  inputError?: string
}

/** One model reply, reduced to what the loop needs. */
export interface ModelReply {
  text: string
  toolCalls: RequestedToolCall[]
  /** Why the reply was cut short, if it was: the request's max_tokens or the model's context window. */
  cutBy: 'max_tokens' | 'context_window' | null
  usage: TurnUsage
}

/** What a tool call returned, to be sent back to the model. */
export interface ToolOutcome {
  call: RequestedToolCall
  ok: boolean
  code?: string
  content: string
}

/** One conversation with one API, in that API's own message format. */
export interface ChatSession {
  /** Characters of the next request body (for the chars/4 token estimate). */
  requestChars(): number
  /** Sends the conversation (retrying transient failures), appends the reply to it and returns it. */
  send(maxTokens: number, signal: AbortSignal): Promise<ModelReply>
  /** Appends the results of the last reply's tool calls. */
  addToolResults(outcomes: ToolOutcome[]): void
}

/**
 * Runs one turn. Ends with 'end' (the model stopped calling tools), 'limit' (tool calls, tokens or the
 * turn timeout) or 'aborted' (the caller's signal). A request that still fails after retries throws a
 * TurnFailedError that carries the requests, usage and transcript of the turn so far.
 */
export async function runToolLoop(
  input: TurnInput,
  tools: ToolSet,
  signal: AbortSignal,
  session: ChatSession,
  maxTokensPerRequest: number,
): Promise<TurnResult> {
  const deadline = startTurnDeadline(input.budget.timeoutMs, signal)
  const limits = new TurnLimits(input.budget, maxTokensPerRequest)
  const transcript: TranscriptEntry[] = [{ kind: 'text', role: 'user', text: input.prompt }]
  let text = ''
  const finish = (stop: TurnResult['stop'], limit?: TurnResult['limit']): TurnResult => ({
    stop,
    ...(limit ? { limit } : {}),
    text,
    transcript,
    usage: limits.usage,
  })
  const finishReply = (reply: ModelReply, isBudgetSpent: boolean): TurnResult => {
    const { stop, limit } = finishReplyStop(reply, isBudgetSpent)
    return finish(stop, limit)
  }
  const finishInterrupted = (): TurnResult =>
    deadline.hasTimedOut() ? finish('limit', 'timeout') : finish('aborted')

  try {
    for (;;) {
      if (deadline.signal.aborted) return finishInterrupted()
      const maxTokens = limits.nextMaxTokens(estimateTokens(session.requestChars()))
      if (maxTokens === null) return finish('limit', 'tokens')
      const reply = await sendOrInterrupt(session, maxTokens, deadline)
      if (!reply) return finishInterrupted()
      limits.recordUsage(reply.usage)
      if (reply.text.trim() !== '') {
        text = reply.text
        transcript.push({ kind: 'text', role: 'assistant', text: reply.text })
      }
      if (reply.toolCalls.length === 0) return finishReply(reply, limits.isTokenBudgetSpent())
      const outcomes: ToolOutcome[] = []
      for (const call of reply.toolCalls) {
        if (deadline.signal.aborted) return finishInterrupted()
        if (!limits.takeToolCall()) return finish('limit', 'tool_calls')
        transcript.push({ kind: 'tool_call', name: call.name, input: call.input })
        const outcome = withNote(await runToolCall(call, tools, deadline.signal), limits.lowBudgetNote())
        transcript.push({ kind: 'tool_result', name: call.name, ok: outcome.ok, content: outcome.content })
        outcomes.push(outcome)
      }
      session.addToolResults(outcomes)
      if (limits.isTokenBudgetSpent()) return finish('limit', 'tokens')
    }
  } catch (error) {
    throw new TurnFailedError(error, { text, transcript, usage: limits.usage })
  } finally {
    deadline.dispose()
  }
}

/**
 * How a reply without tool calls ends the turn: a reply cut because the budget or the context window ran
 * dry is a limit; text-only, empty, or cut by the per-request cap with budget left is the model's end.
 */
function finishReplyStop(reply: ModelReply, isBudgetSpent: boolean): Pick<TurnResult, 'stop' | 'limit'> {
  if (reply.cutBy === 'context_window' || (reply.cutBy === 'max_tokens' && isBudgetSpent)) {
    return { stop: 'limit', limit: 'tokens' }
  }
  return { stop: 'end' }
}

/** The reply, or null when the turn was interrupted while waiting (the request's own error is moot then). */
async function sendOrInterrupt(
  session: ChatSession,
  maxTokens: number,
  deadline: TurnDeadline,
): Promise<ModelReply | null> {
  try {
    return await session.send(maxTokens, deadline.signal)
  } catch (error) {
    if (deadline.signal.aborted) return null
    throw error
  }
}

/** The outcome with the budget note on a line of its own after the result, when there is one. */
function withNote(outcome: ToolOutcome, note: string | null): ToolOutcome {
  return note === null ? outcome : { ...outcome, content: `${outcome.content}\n${note}` }
}

async function runToolCall(
  call: RequestedToolCall,
  tools: ToolSet,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const result = await tools.call(call.name, call.input, signal)
  const content = call.inputError && !result.ok ? `${call.inputError}\n${result.content}` : result.content
  return { call, ok: result.ok, ...(result.code === undefined ? {} : { code: result.code }), content }
}
