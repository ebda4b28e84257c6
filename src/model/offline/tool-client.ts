// The offline engine's only door to the workspace: tool calls with a transcript, an abort check before each
// call, a call budget, and "write only when the bytes differ".
import type { TranscriptEntry } from '../provider.js'
import type { ToolResult, ToolSet } from '../../tools/types.js'

/** Thrown inside the engine when the signal aborts; runTurn turns it into `stop: 'aborted'`. */
export class TurnAbortedSignal extends Error {}

/** Thrown inside the engine when the tool-call budget is spent; runTurn turns it into `stop: 'limit'`. */
export class ToolBudgetSpent extends Error {}

export type ReadOutcome =
  { status: 'ok'; text: string } | { status: 'missing' } | { status: 'refused'; reason: string }

export type WriteOutcome = 'written' | 'unchanged' | 'refused'

/** A write begun with beginWrite. */
export interface PendingWrite {
  /** Waits for the write and records its outcome. */
  finish(): Promise<WriteOutcome>
}

// Transcripts live in the run record: long file bodies and message pages are cut, the call itself is kept.
const TRANSCRIPT_MAX_CHARS = 2000
const TRUNCATED_READ = /\n\[truncated: showing the first \d+ of \d+ bytes of [^\]]*\]$/

function brief(text: string): string {
  return text.length <= TRANSCRIPT_MAX_CHARS
    ? text
    : `${text.slice(0, TRANSCRIPT_MAX_CHARS)}… [${text.length} chars]`
}

function briefInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input))
    out[key] = typeof value === 'string' ? brief(value) : value
  return out
}

export class ToolClient {
  readonly #tools: ToolSet
  readonly #signal: AbortSignal
  readonly #maxCalls: number
  #calls = 0
  readonly transcript: TranscriptEntry[] = []
  /** Workspace-relative paths written, in order. */
  readonly written: string[] = []
  /** One line per refused read or write, for the final report. */
  readonly problems: string[] = []

  constructor(tools: ToolSet, signal: AbortSignal, maxCalls: number) {
    this.#tools = tools
    this.#signal = signal
    this.#maxCalls = maxCalls
  }

  /** The turn's abort signal, for work the engine starts beside its tool calls. */
  get signal(): AbortSignal {
    return this.#signal
  }

  get callCount(): number {
    return this.#calls
  }

  /** Calls left in this turn's budget. */
  get remaining(): number {
    return this.#maxCalls - this.#calls
  }

  /** One tool call. Throws TurnAbortedSignal / ToolBudgetSpent between calls, never in the middle of one. */
  async call(name: string, input: Record<string, unknown>): Promise<ToolResult> {
    return this.#received(name, await this.#send(name, input))
  }

  #send(name: string, input: Record<string, unknown>): Promise<ToolResult> {
    if (this.#signal.aborted) return Promise.reject(new TurnAbortedSignal())
    if (this.#calls >= this.#maxCalls) return Promise.reject(new ToolBudgetSpent())
    this.#calls += 1
    this.transcript.push({ kind: 'tool_call', name, input: briefInput(input) })
    return this.#tools.call(name, input, this.#signal)
  }

  #received(name: string, result: ToolResult): ToolResult {
    this.transcript.push({ kind: 'tool_result', name, ok: result.ok, content: brief(result.content) })
    if (result.code === 'TOOL_ABORTED') throw new TurnAbortedSignal()
    if (result.code === 'TOOL_CALL_LIMIT') throw new ToolBudgetSpent()
    return result
  }

  /** read_file; a file too large to read whole counts as refused, so it is never rewritten from a part. */
  async read(path: string): Promise<ReadOutcome> {
    const result = await this.call('read_file', { path })
    if (result.ok && !TRUNCATED_READ.test(result.content)) return { status: 'ok', text: result.content }
    if (!result.ok && result.code === 'NOT_FOUND') return { status: 'missing' }
    const reason = result.ok ? 'too large to read whole' : result.content
    this.problems.push(`${path}: ${reason}`)
    return { status: 'refused', reason }
  }

  /**
   * write_file, only when `next` differs from what was read (`before`, null when the file was missing): the call is
   * sent now and its outcome taken later, so the write's disk syncs overlap other work. Take outcomes in the order
   * the writes were begun: that is the order written and problems record.
   */
  beginWrite(path: string, before: string | null, next: string): PendingWrite {
    if (before === next) return { finish: () => Promise.resolve('unchanged') }
    const sent = this.#send('write_file', { path, content: next })
    // Rethrown by finish(); a turn that stops before then must not leave it unhandled.
    sent.catch(() => undefined)
    return {
      // The result joins the transcript here, so the transcript reads the same however the writes overlapped.
      finish: async () => {
        const result = this.#received('write_file', await sent)
        if (!result.ok) {
          this.problems.push(`${path}: ${result.content}`)
          return 'refused'
        }
        this.written.push(path)
        return 'written'
      },
    }
  }
}
