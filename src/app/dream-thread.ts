// Runs a host's dreams on their own thread (dream-thread-task.ts): the backup, seeding, the model turn's tool calls,
// the FTS refresh and every run-record update happen there, so a chat turn on this event loop never waits behind
// them. This side only forwards: the run to start, the thread's events, summaries and log lines back to the host.
import { unlink } from 'node:fs/promises'
import type { Worker } from 'node:worker_threads'
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { DreamDeps, DreamEvent } from '../dream/deps.js'
import type { DreamlaneOptions } from './dreamlane.js'
import type { RunStore } from '../dream/runs.js'
import type { DreamRequest, PostedSummary, RunRecord } from '../dream/types.js'
import { errorMessage } from '../errors.js'
import { readLock } from '../notes/lock.js'
import { receivedError } from '../threads/thread-errors.js'
import { lowerOtherThreads } from '../threads/thread-priority.js'
import { startThread, threadModule } from '../threads/thread-task.js'
import type { DreamThreadData, FromDreamThread, ToDreamThread } from './dream-thread-protocol.js'

export type { DreamThreadData }

export interface DreamThreadOptions {
  data: DreamThreadData
  clock: Clock
  log: Logger
  /** The host's own run store: a run the thread could not finish is closed here. */
  runs: RunStore
  lockFile: string
  onEvent?: ((event: DreamEvent) => void) | undefined
  onSummary?: ((summary: PostedSummary) => void | Promise<void>) | undefined
  /** The thread's module. @default dream-thread-task (tests give one that dies) */
  entry?: URL
}

export interface DreamThread {
  /** Runs the queued run `runId` on the thread; settles as runDream does, with the finished record. */
  run(runId: string, request: DreamRequest): Promise<RunRecord>
  /**
   * Starts the thread and has it open its databases and load a dream's modules, so the first dream doesn't do that
   * beside the host's chat; settles when done (or when the thread died), never rejects.
   */
  warm(): Promise<void>
  /** Cancels the running dream and any later one (the host is shutting down). */
  abort(): void
  /** Closes the thread's databases and ends it; call with no run in flight. */
  close(): Promise<void>
}

interface InFlight {
  runId: string
  resolve: (record: RunRecord) => void
  reject: (error: Error) => void
}

/** How long `close` waits for the thread to close its databases before ending it anyway. */
const CLOSE_WAIT_MS = 5000

export function openDreamThread(options: DreamThreadOptions): DreamThread {
  const entry = options.entry ?? threadModule(import.meta.url, './dream-thread-task')
  let worker: Worker | null = null
  let inFlight: InFlight | null = null
  let aborted = false
  let onClosed: (() => void) | null = null
  /** Callers of warm() waiting for the thread's `warmed` (or its death). */
  const onWarmed: (() => void)[] = []
  const settleWarms = (): void => onWarmed.splice(0).forEach((resolve) => resolve())

  const send = (to: Worker, message: ToDreamThread): void => to.postMessage(message)

  function start(): Worker {
    const started = startThread(entry, options.data)
    started.on('message', (message: FromDreamThread) => receive(started, message))
    started.on('error', (error) => died(started, error))
    started.on('exit', (code) => died(started, new Error(`the dream thread exited with code ${code}`)))
    if (aborted) send(started, { type: 'abort' })
    return started
  }

  function receive(from: Worker, message: FromDreamThread): void {
    switch (message.type) {
      case 'event':
        options.onEvent?.(message.event)
        return
      case 'summary':
        void deliverSummary(message.summary).finally(() =>
          send(from, { type: 'summary-delivered', id: message.id }),
        )
        return
      case 'log':
        relog(options.log, message.line)
        return
      case 'finished':
      case 'failed': {
        const settled = inFlight
        inFlight = null
        from.unref()
        if (message.type === 'finished') settled?.resolve(message.record)
        else settled?.reject(receivedError(message.error))
        return
      }
      case 'closed':
        onClosed?.()
        return
      case 'warmed':
        if (!inFlight) from.unref()
        settleWarms()
    }
  }

  async function deliverSummary(summary: PostedSummary): Promise<void> {
    try {
      await options.onSummary?.(summary)
    } catch (error) {
      options.log.warn({ err: error, runId: summary.runId }, 'onSummary hook failed')
    }
  }

  /** A thread that died mid-run leaves its run `lost` (as a dead process would) and gives back its lock. */
  function died(dead: Worker, error: Error): void {
    if (worker !== dead) return
    worker = null
    onClosed?.()
    settleWarms()
    const settled = inFlight
    inFlight = null
    if (!settled) return
    void closeLostRun(settled.runId, error).then(settled.resolve, settled.reject)
  }

  async function closeLostRun(runId: string, error: Error): Promise<RunRecord> {
    options.log.error({ err: error, runId }, 'the dream thread stopped during a dream')
    const holder = await readLock(options.lockFile).catch(() => null)
    if (holder?.runId === runId) await unlink(options.lockFile).catch(() => undefined)
    const run = options.runs.get(runId)
    if (run.status !== 'queued' && run.status !== 'running') return run
    const reason = `the dream thread stopped before the run finished: ${errorMessage(error)}`
    return options.runs.close(runId, { status: 'lost', reason })
  }

  return {
    run(runId, request) {
      if (inFlight) return Promise.reject(new Error(`the dream thread is already running ${inFlight.runId}`))
      const thread = (worker ??= start())
      thread.ref()
      // The dream's garbage collection and file calls run on this process's shared helper threads: behind the
      // event loop's thread, with the dream thread itself (threads made since the last dream start at ours).
      lowerOtherThreads()
      const clockOffsetMs = options.clock.now().getTime() - Date.now()
      return new Promise<RunRecord>((resolve, reject) => {
        inFlight = { runId, resolve, reject }
        send(thread, { type: 'run', runId, request, clockOffsetMs })
      })
    },
    warm() {
      const thread = (worker ??= start())
      thread.ref()
      return new Promise<void>((resolve) => {
        onWarmed.push(resolve)
        send(thread, { type: 'warm' })
      })
    },
    abort() {
      aborted = true
      if (worker) send(worker, { type: 'abort' })
    },
    async close() {
      const closing = worker
      if (!closing) return
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, CLOSE_WAIT_MS)
        onClosed = () => (clearTimeout(timer), resolve())
        send(closing, { type: 'close' })
      })
      onClosed = null
      worker = null
      await closing.terminate()
    },
  }
}

/**
 * The dream thread a host asked for (`dreamThread`), when its dreams can run there: the offline engine, chosen by
 * dreamlane, with no provider or model gate of the host's (functions stay on the host's thread). Else null.
 */
export function hostDreamThread(
  options: Pick<DreamlaneOptions, 'dreamThread' | 'provider' | 'modelGate' | 'messagesDbWait' | 'onEvent'>,
  host: { env: Record<string, string | undefined>; log: Logger; deps: DreamDeps; offline: boolean },
): DreamThread | null {
  if (options.dreamThread !== true || options.provider || options.modelGate || !host.offline) return null
  const { deps } = host
  return openDreamThread({
    data: {
      ...{ config: deps.config, env: { ...host.env }, logLevel: host.log.level },
      messagesDbWaitMs: options.messagesDbWait?.waitMs,
      progress: options.onEvent !== undefined,
    },
    ...{ clock: deps.clock, log: host.log, runs: deps.runs, lockFile: deps.paths.lockFile },
    ...{ onEvent: deps.onEvent, onSummary: deps.onSummary },
  })
}

/** Writes one of the thread's pino lines with the host's logger, at the line's own level. */
function relog(log: Logger, line: string): void {
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(line) as Record<string, unknown>
  } catch {
    return
  }
  const { level, msg, time: _time, pid: _pid, hostname: _hostname, ...fields } = parsed
  const label = typeof level === 'number' ? log.levels.labels[level] : undefined
  const write = label ? (log as unknown as Record<string, unknown>)[label] : undefined
  if (typeof write === 'function') write.call(log, fields, typeof msg === 'string' ? msg : '')
}
