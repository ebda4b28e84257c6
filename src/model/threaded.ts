// Runs a provider's turn in a worker thread, so CPU-heavy engines (the offline engine's sentence scoring and
// date parsing) never hold up chat turns or HTTP requests on the main thread. The tools stay here: every call
// the worker makes is proxied back and goes through the same enforced ToolSet as an in-process turn.
import { parentPort, type Worker } from 'node:worker_threads'
import { lowerThreadPriority } from '../threads/thread-priority.js'
import { startThread } from '../threads/thread-task.js'
import { takeBytes } from '../tools/encoded-text.js'
import type { ToolCallRecord, ToolResult, ToolSet } from '../tools/types.js'
import {
  traitsOf,
  type ModelProvider,
  type ProviderTraits,
  type TurnInput,
  type TurnResult,
} from './provider.js'

/** A tool result on its way to the worker: its content as text, or as UTF-8 bytes moved from the reader thread. */
type SentResult = ToolResult | { ok: boolean; code?: string; utf8: Uint8Array }

/** Parent → worker. One turn at a time per worker. */
export type ToWorker =
  | { type: 'turn'; input: TurnInput; options: unknown }
  | { type: 'result'; id: number; result: SentResult }
  | { type: 'abort' }

/** Worker → parent. */
export type FromWorker =
  | { type: 'call'; id: number; name: string; input: unknown }
  | { type: 'done'; result: TurnResult }
  | { type: 'failed'; message: string; stack?: string }

export interface ThreadedProviderOptions {
  name: string
  /** The worker's module (see threadModule). */
  entry: URL
  /** Plain data handed to the worker with each turn (structured-cloned). */
  options?: unknown
  traits?: ProviderTraits
  /**
   * How long a worker that finished its turn is kept for the next one (its libraries loaded, its code
   * compiled), then ended; `Infinity` keeps it until the process exits. @default 30000
   */
  idleMs?: number
}

const DEFAULT_IDLE_MS = 30_000

interface Idle {
  worker: Worker
  timer: NodeJS.Timeout | undefined
  /** Ends a parked worker that fails (one still loading its libraries can). */
  onError: () => void
}

// Idle workers by entry. Unreferenced, so an idle worker never keeps the process alive.
const idle = new Map<string, Idle[]>()

function takeWorker(entry: URL): Worker {
  const parked = idle.get(entry.href)?.pop()
  if (!parked) return startThread(entry)
  clearTimeout(parked.timer)
  parked.worker.off('error', parked.onError)
  parked.worker.ref()
  return parked.worker
}

function park(entry: URL, worker: Worker, idleMs: number): void {
  worker.unref()
  const list = idle.get(entry.href) ?? []
  const end = (): void => {
    const at = list.indexOf(entryIdle)
    if (at >= 0) list.splice(at, 1)
    clearTimeout(entryIdle.timer)
    worker.off('error', end)
    void worker.terminate()
  }
  // setTimeout would clamp Infinity to 1 ms: a worker kept for good gets no timer at all.
  const entryIdle: Idle = {
    worker,
    timer: Number.isFinite(idleMs) ? setTimeout(end, idleMs).unref() : undefined,
    onError: end,
  }
  worker.on('error', end)
  list.push(entryIdle)
  idle.set(entry.href, list)
}

/** A tool call that threw is refused here rather than thrown across the thread: the engine sees a refusal. */
function failedCall(error: unknown): ToolResult {
  const message = error instanceof Error ? error.message : String(error)
  return { ok: false, content: `tool call failed: ${message}`, code: 'TOOL_FAILED' }
}

function runInWorker(
  settings: ThreadedProviderOptions,
  input: TurnInput,
  tools: ToolSet,
  signal: AbortSignal,
): Promise<TurnResult> {
  const worker = takeWorker(settings.entry)
  const send = (message: ToWorker): void => worker.postMessage(message)
  // A message page arrives from the reader thread as bytes: they move on to the engine's thread untouched, so the
  // main thread neither copies nor decodes up to ~700 KB per page (the call was checked and recorded here).
  const sendResult = (id: number, result: ToolResult): void => {
    const utf8 = takeBytes(result)
    if (!utf8) return send({ type: 'result', id, result })
    const sent: ToWorker = { type: 'result', id, result: { ok: result.ok, utf8 } }
    worker.postMessage(sent, [utf8.buffer])
  }
  return new Promise<TurnResult>((resolve, reject) => {
    let settled = false
    /** Ends the turn; a worker that finished its turn cleanly is parked for the next one. */
    const settle = (reusable: boolean, finish: () => void): void => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      worker.off('message', onMessage).off('error', onError).off('exit', onExit)
      if (reusable) park(settings.entry, worker, settings.idleMs ?? DEFAULT_IDLE_MS)
      else void worker.terminate()
      finish()
    }
    const onAbort = (): void => send({ type: 'abort' })
    const onMessage = (message: FromWorker): void => {
      if (message.type === 'call') {
        tools.call(message.name, message.input, signal).then(
          (result) => sendResult(message.id, result),
          (error: unknown) => send({ type: 'result', id: message.id, result: failedCall(error) }),
        )
      } else if (message.type === 'done') {
        settle(true, () => resolve(message.result))
      } else {
        const error = new Error(message.message)
        if (message.stack) error.stack = message.stack
        settle(false, () => reject(error))
      }
    }
    const onError = (error: Error): void => settle(false, () => reject(error))
    const onExit = (code: number): void =>
      settle(false, () =>
        reject(new Error(`the ${settings.name} engine's worker exited (code ${code}) mid-turn`)),
      )
    worker.on('message', onMessage).on('error', onError).on('exit', onExit)
    signal.addEventListener('abort', onAbort, { once: true })
    send({ type: 'turn', input, options: settings.options })
    if (signal.aborted) onAbort()
  })
}

/** A provider whose turns run in a worker thread; `name` and traits are known without starting one. */
export function threadedProvider(settings: ThreadedProviderOptions): ModelProvider {
  return {
    name: settings.name,
    ...traitsOf(settings.traits),
    runTurn: (input, tools, signal) => runInWorker(settings, input, tools, signal),
    // A worker started now waits parked, loading its libraries, until the turn takes it.
    prepare: () => {
      if ((idle.get(settings.entry.href)?.length ?? 0) === 0)
        park(settings.entry, startThread(settings.entry), settings.idleMs ?? DEFAULT_IDLE_MS)
    },
  }
}

/**
 * The worker's side: serves turns one at a time with the provider `create` makes from each turn's options. The
 * provider's tools are the main thread's, reached by message; its record stays there.
 */
export function serveTurnsInWorker(create: (options: unknown) => ModelProvider): void {
  const port = parentPort
  if (!port) throw new Error('serveTurnsInWorker must run in a worker thread')
  // An engine computes for the whole turn: on two cores it would otherwise hold back the event loop's thread.
  lowerThreadPriority()
  const pending = new Map<number, (result: ToolResult) => void>()
  let nextId = 0
  let abort = new AbortController()
  const send = (message: FromWorker): void => port.postMessage(message)
  const tools: ToolSet = {
    specs: () => [],
    call: (name, input) =>
      new Promise<ToolResult>((resolve) => {
        const id = nextId++
        pending.set(id, resolve)
        send({ type: 'call', id, name, input })
      }),
    calls: (): readonly ToolCallRecord[] => [],
    changedFiles: () => [],
  }
  const turn = async (message: Extract<ToWorker, { type: 'turn' }>): Promise<void> => {
    abort = new AbortController()
    try {
      send({
        type: 'done',
        result: await create(message.options).runTurn(message.input, tools, abort.signal),
      })
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error))
      send({ type: 'failed', message: failure.message, ...(failure.stack ? { stack: failure.stack } : {}) })
    }
  }
  port.on('message', (message: ToWorker) => {
    if (message.type === 'turn') void turn(message)
    else if (message.type === 'abort') abort.abort()
    else {
      pending.get(message.id)?.(receivedResult(message.result))
      pending.delete(message.id)
    }
  })
}

/** The result as the engine sees it: bytes moved from the reader thread are decoded here, on the engine's thread. */
function receivedResult(result: SentResult): ToolResult {
  if (!('utf8' in result)) return result
  return { ok: result.ok, content: new TextDecoder().decode(result.utf8) }
}
