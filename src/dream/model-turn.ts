// Runs the provider's turn under the turn timeout and the run's abort signal, records what it used however it
// ends, and names what went wrong.
import { DreamlaneError, errorMessage } from '../errors.js'
import type { TranscriptEntry, TurnInput, TurnResult } from '../model/provider.js'
import { describeUsage, EMPTY_USAGE, partialTurnOf } from '../model/provider.js'
import type { ToolSet } from '../tools/types.js'
import type { DreamDeps } from './deps.js'

export interface ModelTurnOutcome {
  result: TurnResult
  /** Why the turn cannot count as done (then the offline engine runs), or null. */
  failure: string | null
  providerName: string
  model: string | null
  describe: string
}

/**
 * The turn's outcome. Its requests, usage, tool calls and transcript are in the run record before this returns or
 * throws, so a cancelled, timed-out or failed turn still shows what it spent. A cancelled run throws.
 */
export async function runModelTurn(
  input: TurnInput,
  tools: ToolSet,
  deps: DreamDeps,
  runId: string,
): Promise<ModelTurnOutcome> {
  const provider = deps.provider
  const timeout = AbortSignal.timeout(input.budget.timeoutMs)
  const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout
  const base = { providerName: provider.name, model: input.model ?? provider.model ?? null }
  let result: TurnResult
  let thrown: { error: unknown } | null = null
  try {
    result = await provider.runTurn(input, tools, signal)
  } catch (error) {
    thrown = { error }
    const partial = partialTurnOf(error) ?? { text: '', transcript: [], usage: { ...EMPTY_USAGE } }
    result = { stop: 'aborted', ...partial }
  }
  deps.runs.update(runId, {
    provider: base.providerName,
    model: base.model,
    usage: result.usage,
    toolCalls: tools.calls(),
    transcript: redactedTranscript(tools, result.transcript),
  })
  if ((thrown || result.stop === 'aborted') && deps.signal?.aborted)
    throw new DreamlaneError('PROVIDER_FAILED', 'dream cancelled', thrown ? { cause: thrown.error } : {})
  const timedOut = `the model turn timed out after ${input.budget.timeoutMs} ms`
  if (thrown) {
    deps.log.warn({ err: thrown.error, runId }, 'model turn failed')
    const failure = timeout.aborted
      ? timedOut
      : `the ${provider.name} provider failed: ${errorMessage(thrown.error)}`
    return { ...base, result, failure, describe: `${failure}; ${describeUse(result, tools)}` }
  }
  const failure =
    result.stop === 'limit'
      ? `the model turn hit its ${result.limit ?? 'budget'} limit`
      : result.stop === 'aborted'
        ? timedOut
        : null
  return {
    ...base,
    result,
    failure,
    describe: `${provider.name}: ${result.stop}, ${describeUse(result, tools)}`,
  }
}

/** "7 tool call(s), 1200 fresh input, 5000 cache read, 800 cache write, 300 output tokens in 3 request(s)" */
function describeUse(result: TurnResult, tools: ToolSet): string {
  return `${tools.calls().length} tool call(s), ${describeUsage(result.usage)}`
}

/** A turn's transcript as the run record keeps it: no secret the turn saw or wrote (message pages included). */
export function redactedTranscript(
  tools: ToolSet,
  transcript: readonly TranscriptEntry[],
): TranscriptEntry[] {
  return tools.redactRecord ? tools.redactRecord([...transcript]) : [...transcript]
}
