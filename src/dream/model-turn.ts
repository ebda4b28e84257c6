// Runs the provider's turn under the turn timeout and the run's abort signal, and names what went wrong.
import { DreamlaneError, errorMessage } from '../errors.js'
import type { TurnInput, TurnResult } from '../model/provider.js'
import { EMPTY_USAGE } from '../model/provider.js'
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
  try {
    result = await provider.runTurn(input, tools, signal)
  } catch (error) {
    if (deps.signal?.aborted) throw new DreamlaneError('PROVIDER_FAILED', 'dream cancelled', { cause: error })
    deps.log.warn({ err: error, runId }, 'model turn failed')
    const failure = timeout.aborted
      ? `the model turn timed out after ${input.budget.timeoutMs} ms`
      : `the ${provider.name} provider failed: ${errorMessage(error)}`
    const empty: TurnResult = { stop: 'aborted', text: '', transcript: [], usage: { ...EMPTY_USAGE } }
    return { ...base, result: empty, failure, describe: failure }
  }
  if (result.stop === 'aborted' && deps.signal?.aborted)
    throw new DreamlaneError('PROVIDER_FAILED', 'dream cancelled')
  const failure =
    result.stop === 'limit'
      ? `the model turn hit its ${result.limit ?? 'budget'} limit`
      : result.stop === 'aborted'
        ? `the model turn timed out after ${input.budget.timeoutMs} ms`
        : null
  const describe = `${provider.name}: ${result.stop}, ${tools.calls().length} tool call(s), ${result.usage.inputTokens + result.usage.outputTokens} tokens`
  return { ...base, result, failure, describe }
}
