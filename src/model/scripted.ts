// The scripted provider (tests): plays a fixed list of tool calls and texts through the real tool layer.
import { sleepFor } from './retry.js'
import {
  EMPTY_USAGE,
  type ModelProvider,
  type TranscriptEntry,
  type TurnResult,
  type TurnUsage,
} from './provider.js'

export type ScriptStep =
  | { tool: string; input: unknown }
  | { text: string }
  /** Throws, as a failing API would. */
  | { fail: string }
  /** Waits (honouring the abort signal), as a slow model would. */
  | { waitMs: number }

export interface ScriptedOptions {
  /** Usage reported per step, to test accounting. */
  usagePerStep?: Partial<TurnUsage>
  model?: string
}

export function createScriptedProvider(script: ScriptStep[], options: ScriptedOptions = {}): ModelProvider {
  return {
    name: 'scripted',
    model: options.model ?? 'script',
    async runTurn(input, tools, signal): Promise<TurnResult> {
      const transcript: TranscriptEntry[] = [{ kind: 'text', role: 'user', text: input.prompt }]
      let usage: TurnUsage = { ...EMPTY_USAGE }
      let text = ''
      let toolCalls = 0
      for (const step of script) {
        if (signal.aborted) return { stop: 'aborted', text, transcript, usage }
        usage = addStepUsage(usage, options.usagePerStep)
        if ('fail' in step) throw new Error(step.fail)
        if ('waitMs' in step) {
          await sleepFor(step.waitMs, signal)
          continue
        }
        if ('text' in step) {
          text = step.text
          transcript.push({ kind: 'text', role: 'assistant', text: step.text })
          continue
        }
        if (toolCalls >= input.budget.maxToolCalls)
          return { stop: 'limit', limit: 'tool_calls', text, transcript, usage }
        toolCalls += 1
        transcript.push({ kind: 'tool_call', name: step.tool, input: step.input })
        const result = await tools.call(step.tool, step.input, signal)
        transcript.push({ kind: 'tool_result', name: step.tool, ok: result.ok, content: result.content })
      }
      return { stop: signal.aborted ? 'aborted' : 'end', text, transcript, usage }
    },
  }
}

function addStepUsage(usage: TurnUsage, step: Partial<TurnUsage> | undefined): TurnUsage {
  if (!step) return usage
  return {
    inputTokens: usage.inputTokens + (step.inputTokens ?? 0),
    outputTokens: usage.outputTokens + (step.outputTokens ?? 0),
    cacheReadTokens: usage.cacheReadTokens + (step.cacheReadTokens ?? 0),
    cacheWriteTokens: usage.cacheWriteTokens + (step.cacheWriteTokens ?? 0),
    requests: usage.requests + (step.requests ?? 1),
  }
}
