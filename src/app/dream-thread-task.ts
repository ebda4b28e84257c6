// The dream thread: whole dreams (lock, backup, seeding, the model turn and its tools, index, review, FTS refresh,
// run record, summary) run here, away from the event loop the host answers chat on. It opens its own connections
// to the workspace's databases once, keeps them for the next dream, and tells the parent everything as it happens.
import { parentPort, workerData } from 'node:worker_threads'
import { pino } from 'pino'
import type { DreamDeps } from '../dream/deps.js'
import { isSweepMode } from '../dream/types.js'
import { workspacePaths } from '../notes/paths.js'
import { sentError } from '../threads/thread-errors.js'
import { lowerThreadPriority } from '../threads/thread-priority.js'
import { wireDreamDeps } from './dream-deps.js'
import type { DreamThreadData, FromDreamThread, ToDreamThread } from './dream-thread-protocol.js'
import { openWorkspaceStores } from './stores.js'

const port = parentPort
if (!port) throw new Error('the dream thread runs only inside a worker thread')
const parent = port
const data = (workerData as { data: DreamThreadData }).data
const post = (message: FromDreamThread): void => parent.postMessage(message)

// Dreams are background work: the host's event loop comes first when both want a core.
lowerThreadPriority()

/** The parent's clock, as an offset from this thread's: a host's shifted clock (a replayed history) holds here too. */
let clockOffsetMs = 0
const clock = { now: () => new Date(Date.now() + clockOffsetMs) }
const abort = new AbortController()
const summaryAcks = new Map<number, () => void>()
let nextSummaryId = 0
let opened: { deps: DreamDeps; close(): Promise<void> } | null = null

/** Log lines go to the parent, which writes them with the host's own logger. */
const log = pino(
  { level: data.logLevel, base: { thread: 'dream' } },
  { write: (line: string) => post({ type: 'log', line }) },
)

function openDeps(): { deps: DreamDeps; close(): Promise<void> } {
  const { config, env } = data
  const paths = workspacePaths(config)
  // This thread is already off the host's event loop: it reads the messages DB and runs the engine's turns itself.
  // A reader and an engine thread of their own would only add thread hops to every page a dream reads: more page
  // faults, system time and wake-ups beside the host's thread, for no gain in a thread that does nothing else.
  const stores = openWorkspaceStores(paths, {
    messagesDbWait: data.messagesDbWaitMs === undefined ? undefined : { waitMs: data.messagesDbWaitMs },
    messagesOnThread: false,
  })
  const { deps } = wireDreamDeps({
    ...{ config, paths, env, clock, log, stores, signal: abort.signal, engineHere: true },
    // Each message wakes the host's event loop, and a dream makes dozens a second: progress only when heard.
    onEvent: (event) => {
      if (data.progress || event.type === 'finished') post({ type: 'event', event })
    },
    // The host's hook runs on its own thread; the run waits for it there, as it would in-process.
    onSummary: (summary) =>
      new Promise<void>((resolve) => {
        const id = nextSummaryId++
        summaryAcks.set(id, resolve)
        post({ type: 'summary', id, summary })
      }),
  })
  return { deps, close: () => stores.close() }
}

parent.on('message', (message: ToDreamThread) => {
  if (message.type === 'abort') abort.abort()
  else if (message.type === 'close') {
    void (opened?.close() ?? Promise.resolve()).finally(() => post({ type: 'closed' }))
  } else if (message.type === 'warm') {
    // A first dream loads the lifecycle and the engine (compromise, chrono-node): a second or two of compiling and
    // collecting that chat turns feel. A host that is starting up has it done before anyone chats.
    const started = performance.now()
    Promise.resolve()
      .then(async () => {
        opened ??= openDeps()
        await Promise.all([import('../dream/run.js'), import('../model/offline/engine.js')])
        log.debug({ ms: Math.round(performance.now() - started) }, 'dream thread warmed')
      })
      .catch((error: unknown) =>
        log.warn({ err: error }, 'dream thread could not warm up; the first dream will'),
      )
      .finally(() => post({ type: 'warmed' }))
  } else if (message.type === 'summary-delivered') {
    summaryAcks.get(message.id)?.()
    summaryAcks.delete(message.id)
  } else {
    clockOffsetMs = message.clockOffsetMs
    Promise.resolve()
      .then(async () => {
        const { deps } = (opened ??= openDeps())
        const { runId, request } = message
        return isSweepMode(request.mode)
          ? (await import('../dream/sweep.js')).runSweep(runId, request, deps)
          : (await import('../dream/run.js')).runDream(runId, request, deps)
      })
      .then(
        (record) => post({ type: 'finished', runId: message.runId, record }),
        (error: unknown) => post({ type: 'failed', runId: message.runId, error: sentError(error) }),
      )
  }
})
