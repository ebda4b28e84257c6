// What the offline fallback really did, in the words the run's reason (and so its summary) uses.
import type { TurnResult } from '../model/provider.js'
import type { ToolSet } from '../tools/types.js'

/**
 * "the offline engine consolidated instead", or that it did not and why: it ran to its end (and whether it
 * changed anything), or it stopped, at which limit, and what it had written by then.
 */
export function describeFallback(
  engine: string,
  result: TurnResult,
  tools: ToolSet,
  maxToolCalls: number,
): string {
  const who = `the ${engine} engine`
  const written = tools.changedFiles().length
  if (result.stop === 'end')
    return written > 0 ? `${who} consolidated instead` : `${who} ran instead and changed nothing`
  const why =
    result.stop === 'aborted'
      ? 'it was stopped'
      : result.limit === 'tool_calls'
        ? `it stopped at its limit of ${maxToolCalls} tool calls`
        : `it stopped at its ${result.limit ?? 'budget'} limit`
  const left = written > 0 ? `after writing ${written} file(s)` : 'with nothing written'
  return `${who} did not consolidate either: ${why}, ${left}`
}
