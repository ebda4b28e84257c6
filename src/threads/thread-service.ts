// A long-lived worker thread that answers requests: the parent posts plain data and gets each answer, or the error
// (its code kept), back by id. The thread starts with the first request, keeps the process alive only while a
// request is pending, and a thread that died is started anew by the next request.
import { parentPort, workerData, type Transferable, type Worker } from 'node:worker_threads'
import { receivedError, sentError, type SentError } from './thread-errors.js'
import { lowerThreadPriority } from './thread-priority.js'
import { startThread } from './thread-task.js'

/** Parent → thread. */
interface Request {
  id: number
  value: unknown
}

/** Thread → parent. */
type Reply = { id: number; answer: unknown } | { id: number; error: SentError }

export interface ThreadService {
  /** Posts `value` to the thread and resolves with its answer (structured-cloned), or rejects with its error. */
  request<Answer>(value: unknown): Promise<Answer>
  /** Ends the thread; pending and later requests reject. */
  close(): Promise<void>
}

interface Pending {
  resolve: (answer: unknown) => void
  reject: (error: Error) => void
}

/** A service on `entry` (a module that calls serveThreadRequests), its `open` handed `data`. */
export function threadService(entry: URL, data?: unknown): ThreadService {
  const pending = new Map<number, Pending>()
  let worker: Worker | null = null
  let nextId = 0
  let closed = false

  /** Rejects what `dead` still owed and forgets it, so the next request starts a new thread. */
  const fail = (dead: Worker, error: Error): void => {
    if (worker !== dead) return
    worker = null
    void dead.terminate()
    for (const { reject } of pending.values()) reject(error)
    pending.clear()
  }
  const start = (): Worker => {
    const started = startThread(entry, data)
    started.unref()
    started.on('message', (reply: Reply) => {
      const waiting = pending.get(reply.id)
      pending.delete(reply.id)
      if (pending.size === 0) started.unref()
      if ('error' in reply) waiting?.reject(receivedError(reply.error))
      else waiting?.resolve(reply.answer)
    })
    started.on('error', (error) => fail(started, error))
    started.on('exit', (code) =>
      fail(started, new Error(`a service thread (${entry.pathname}) exited with code ${code}`)),
    )
    return started
  }

  return {
    request<Answer>(value: unknown): Promise<Answer> {
      if (closed) return Promise.reject(new Error(`the service thread (${entry.pathname}) is closed`))
      worker ??= start()
      if (pending.size === 0) worker.ref()
      const id = nextId++
      const answered = new Promise<Answer>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (answer: unknown) => void, reject })
      })
      worker.postMessage({ id, value } satisfies Request)
      return answered
    },
    async close() {
      closed = true
      const running = worker
      if (!running) return
      fail(running, new Error(`the service thread (${entry.pathname}) was closed`))
      await running.terminate()
    },
  }
}

/** An answer whose `transfer` list (ArrayBuffers it holds) is moved to the parent instead of copied. */
class Transferring {
  readonly value: unknown
  readonly transfer: readonly Transferable[]
  constructor(value: unknown, transfer: readonly Transferable[]) {
    this.value = value
    this.transfer = transfer
  }
}

/** Marks `value` as an answer whose `transfer` list is moved, not copied (the thread can no longer use it). */
export function transferring(value: unknown, transfer: readonly Transferable[]): unknown {
  return new Transferring(value, transfer)
}

/**
 * The thread's side: answers each request with `answer`, made by `open` from the parent's data on the first request
 * (and again on the next one when opening failed, so a DB that was busy is retried). Requests are answered as they
 * finish, not strictly in order. Call it once, at the top level of the thread's entry module.
 */
export function serveThreadRequests(open: (data: unknown) => (value: unknown) => unknown): void {
  const port = parentPort
  if (!port) throw new Error('serveThreadRequests runs only inside a worker thread')
  // Background work: the event loop's thread comes first (see thread-priority.ts).
  lowerThreadPriority()
  let answer: ((value: unknown) => unknown) | null = null
  port.on('message', (request: Request) => {
    Promise.resolve()
      .then(() => (answer ??= open((workerData as { data: unknown }).data))(request.value))
      .then(
        (result) =>
          result instanceof Transferring
            ? port.postMessage({ id: request.id, answer: result.value } satisfies Reply, [...result.transfer])
            : port.postMessage({ id: request.id, answer: result } satisfies Reply),
        (error: unknown) => port.postMessage({ id: request.id, error: sentError(error) } satisfies Reply),
      )
  })
}
