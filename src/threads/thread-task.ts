// One task in a worker thread: the parent posts plain data and gets back the task's result, the messages it posts
// on the way, or its error (a DreamlaneError keeps its code); the thread is ended however the task ends.
import { Worker, parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { receivedError, sentError, type SentError } from './thread-errors.js'

/** Worker → parent. */
type FromThread =
  | { type: 'message'; value: unknown }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; error: SentError }

/** Parent → worker: the data of a task started early (startThreadTask), or a stream's items and end. */
type ToThread = { type: 'data'; data: unknown } | { type: 'item'; value: unknown } | { type: 'end' }

export interface ThreadTaskOptions {
  /** Called with each value the task posts before it finishes (in order, on the parent's event loop). */
  onMessage?: (value: unknown) => void
  /** Ends the thread at once; the promise rejects with the signal's reason. */
  signal?: AbortSignal
}

/**
 * A module next to `base` (an `import.meta.url`) with `base`'s extension: `.js` in dist/, `.ts` when src/ runs
 * under vitest or tsx.
 */
export function threadModule(base: string, path: string): URL {
  return new URL(`${path}${new URL(base).pathname.endsWith('.ts') ? '.ts' : '.js'}`, base)
}

/**
 * A worker thread on `entry` with `data` as its workerData's `data` (or, with `awaitsData`, the data posted to it
 * later); a `.ts` entry starts through tsx.
 */
export function startThread(entry: URL, data?: unknown, how: { awaitsData?: boolean } = {}): Worker {
  const shared = { data, awaitsData: how.awaitsData === true }
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData: shared })
  // Node 20 ignores `--import tsx` in a worker's execArgv: a small boot file registers tsx, then imports the entry.
  const boot = new URL('./tsx-thread.mjs', import.meta.url)
  return new Worker(boot, { workerData: { entry: entry.href, ...shared } })
}

/** Runs the task `entry` serves (see serveThreadTask) on `data` in a new worker thread. */
export function runThreadTask<Result>(
  entry: URL,
  data: unknown,
  options: ThreadTaskOptions = {},
): Promise<Result> {
  if (options.signal?.aborted) return Promise.reject(options.signal.reason)
  return settledBy<Result>(startThread(entry, data), entry, options)
}

/** A task whose thread is already loading its modules while the parent gets its data ready. */
export interface EarlyThreadTask<Result> {
  /** Hands the task its data; call once. */
  send(data: unknown): void
  /** The task's result, as runThreadTask's. */
  result: Promise<Result>
}

/**
 * Starts the thread for `entry` now and runs its task when `send` hands over the data: the thread's start-up
 * (loading and compiling its modules) overlaps whatever the parent does meanwhile.
 */
export function startThreadTask<Result>(
  entry: URL,
  options: ThreadTaskOptions = {},
): EarlyThreadTask<Result> {
  if (options.signal?.aborted) {
    return { send: () => undefined, result: Promise.reject(options.signal.reason) }
  }
  const worker = startThread(entry, undefined, { awaitsData: true })
  const result = settledBy<Result>(worker, entry, options)
  return {
    send: (data) => worker.postMessage({ type: 'data', data } satisfies ToThread),
    result,
  }
}

/** A task fed a stream of values: its thread works on each as it arrives, until the parent ends the stream. */
export interface ThreadStream<Result> {
  /** Hands the task its next value. */
  send(value: unknown): void
  /** Says no more values follow; the task finishes what it has and reports its result. */
  end(): void
  /** The task's result, as runThreadTask's. */
  result: Promise<Result>
}

/** Starts the thread for `entry`, a task served by serveThreadStream, and feeds it values as `send` is called. */
export function startThreadStream<Result>(entry: URL, options: ThreadTaskOptions = {}): ThreadStream<Result> {
  if (options.signal?.aborted) {
    return { send: () => undefined, end: () => undefined, result: Promise.reject(options.signal.reason) }
  }
  const worker = startThread(entry, undefined, { awaitsData: true })
  const post = (message: ToThread): void => worker.postMessage(message)
  return {
    send: (value) => post({ type: 'item', value }),
    end: () => post({ type: 'end' }),
    result: settledBy<Result>(worker, entry, options),
  }
}

function settledBy<Result>(worker: Worker, entry: URL, options: ThreadTaskOptions): Promise<Result> {
  const { signal, onMessage } = options
  return new Promise<Result>((resolve, reject) => {
    let settled = false
    const settle = (finish: () => void): void => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', onAbort)
      void worker.terminate()
      finish()
    }
    const onAbort = (): void => settle(() => reject(signal?.reason))
    signal?.addEventListener('abort', onAbort, { once: true })
    worker.on('message', (message: FromThread) => {
      if (message.type === 'message') onMessage?.(message.value)
      else if (message.type === 'done') settle(() => resolve(message.result as Result))
      else settle(() => reject(receivedError(message.error)))
    })
    worker.on('error', (error) => settle(() => reject(error)))
    worker.on('exit', (code) =>
      settle(() =>
        reject(new Error(`a worker thread (${entry.pathname}) exited with code ${code} before finishing`)),
      ),
    )
  })
}

/**
 * The worker side: runs `task` on the data the parent posted, with `post` to send values on the way, then reports
 * its result or error. Call it once, at the top level of the thread's entry module.
 */
export function serveThreadTask(task: (data: unknown, post: (value: unknown) => void) => unknown): void {
  serveOnPort('serveThreadTask', (port, post) => {
    const shared = workerData as { data: unknown; awaitsData: boolean }
    const data = shared.awaitsData
      ? new Promise<unknown>((resolve) =>
          port.once('message', (message: ToThread) =>
            resolve(message.type === 'data' ? message.data : undefined),
          ),
        )
      : Promise.resolve(shared.data)
    return data.then((value) => task(value, post))
  })
}

/** Runs `run` with the parent's port and a way to post values, then reports its result or error to the parent. */
function serveOnPort(
  name: string,
  run: (port: MessagePort, post: (value: unknown) => void) => unknown,
): void {
  const port = parentPort
  if (!port) throw new Error(`${name} runs only inside a worker thread`)
  const send = (message: FromThread): void => port.postMessage(message)
  Promise.resolve()
    .then(() => run(port, (value) => send({ type: 'message', value })))
    .then(
      (result) => send({ type: 'done', result }),
      (error: unknown) => send({ type: 'failed', error: sentError(error) }),
    )
}

/**
 * The worker side of startThreadStream: `task` reads the values the parent sends, in order, until it ends the
 * stream. Call it once, at the top level of the thread's entry module.
 */
export function serveThreadStream(
  task: (values: AsyncIterable<unknown>, post: (value: unknown) => void) => unknown,
): void {
  serveOnPort('serveThreadStream', (port, post) => {
    const arrived: ToThread[] = []
    let wake: (() => void) | null = null
    port.on('message', (message: ToThread) => {
      arrived.push(message)
      wake?.()
    })
    async function* values(): AsyncGenerator<unknown> {
      for (;;) {
        const next = arrived.shift()
        if (next === undefined) {
          await new Promise<void>((resolve) => (wake = resolve))
          wake = null
          continue
        }
        if (next.type === 'end') return
        if (next.type === 'item') yield next.value
      }
    }
    return task(values(), post)
  })
}
