// The threads that pack notes for backups: each one's requests and replies, and the idle ones kept for the next
// backup (or started ahead of one, while a command is still loading).
import { Worker } from 'node:worker_threads'
import { PACK_WORKER_SOURCE, type PackedFiles } from './pack-worker.js'

export interface WorkerReply extends PackedFiles {
  id: number
}

interface Pending {
  resolve(reply: WorkerReply): void
  reject(error: unknown): void
}

/**
 * A pool's idle threads are kept this long for the next backup, then ended: starting a thread costs ~28 ms of
 * CPU, 8% of a small workspace's whole dream (a fleet worker backs up once per job).
 */
const IDLE_MS = 30_000

/** Threads a closed pool left healthy and idle, newest last. Unreferenced, so they never keep the process up. */
const idle: { worker: PackWorker; timer: NodeJS.Timeout }[] = []

/** An idle thread from an earlier pool, or a new one. */
export function takeWorker(): PackWorker {
  for (let parked = idle.pop(); parked; parked = idle.pop()) {
    clearTimeout(parked.timer)
    if (parked.worker.isReusable) {
      parked.worker.ref()
      return parked.worker
    }
    void parked.worker.close()
  }
  return new PackWorker()
}

/** Parks a thread that owes nothing for the next pool; a failed or busy one is ended. */
export async function releaseWorker(worker: PackWorker): Promise<void> {
  if (!worker.isReusable) return worker.close()
  worker.unref()
  const entry = {
    worker,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1)
      void worker.close()
    }, IDLE_MS).unref(),
  }
  idle.push(entry)
}

/** One worker thread and the batches it still owes. */
export class PackWorker {
  readonly #worker: Worker
  readonly #pending = new Map<number, Pending>()
  #failure: unknown = undefined
  #isReady = false
  readonly #ready: Promise<void>
  #settleReady: { resolve(): void; reject(error: unknown): void } | undefined

  constructor() {
    this.#ready = new Promise((resolve, reject) => (this.#settleReady = { resolve, reject }))
    this.#ready.catch(() => undefined) // a thread that fails before it starts rejects only those who wait on it
    this.#worker = new Worker(PACK_WORKER_SOURCE, {
      // Plain JavaScript: none of the parent's loaders (tsx under the benches and tests) need to start here.
      execArgv: [],
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: 1 },
    })
    this.#worker.on('message', (reply: WorkerReply | { ready: true }) => {
      if ('ready' in reply) {
        this.#isReady = true
        return this.#settleReady?.resolve()
      }
      this.#pending.get(reply.id)?.resolve(reply)
      this.#pending.delete(reply.id)
    })
    this.#worker.on('error', (error) => this.#fail(error))
    this.#worker.on('exit', (code) => this.#fail(new Error(`a backup pack worker exited (code ${code})`)))
  }

  /** Started, and never failed: work sent now is packed at once. */
  get isReady(): boolean {
    return this.#isReady && this.#failure === undefined
  }

  /** Resolves once the thread has started; rejects if it fails first. */
  get ready(): Promise<void> {
    return this.#ready
  }

  get outstanding(): number {
    return this.#pending.size
  }

  get threadId(): number {
    return this.#worker.threadId
  }

  /** Alive, never failed, and owing no batch: safe to hand to the next pool. */
  get isReusable(): boolean {
    return this.#failure === undefined && this.#pending.size === 0
  }

  ref(): void {
    this.#worker.ref()
  }

  unref(): void {
    this.#worker.unref()
  }

  /** Hands a reply's body back for the thread's next replies to reuse. */
  recycle(body: ArrayBuffer): void {
    if (this.#failure === undefined) this.#worker.postMessage({ recycle: body }, [body])
  }

  run(id: number, request: object): Promise<WorkerReply> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure)
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject })
      this.#worker.postMessage({ id, ...request })
    })
  }

  async close(): Promise<void> {
    this.#failure ??= new Error('the backup pack pool is closed')
    await this.#worker.terminate()
  }

  #fail(error: unknown): void {
    this.#failure ??= error
    this.#settleReady?.reject(this.#failure)
    for (const pending of this.#pending.values()) pending.reject(this.#failure)
    this.#pending.clear()
  }
}

/** A pack thread started ahead of a backup: its id, and when it has started (rejected if it fails first). */
export interface StartedPackThread {
  threadId: number
  ready: Promise<void>
}

/**
 * Starts a thread for the next backup and parks it, so it is ready by the time that backup lists its notes: a
 * thread takes ~30 ms to start, which `backups create` spends loading its modules meanwhile. Returns its id and
 * when it has started (rejected if it fails first).
 */
export function startPackThread(): StartedPackThread {
  const worker = new PackWorker()
  void releaseWorker(worker)
  return { threadId: worker.threadId, ready: worker.ready }
}
