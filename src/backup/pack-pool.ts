// Packs notes (read, sha256, CRC-32, deflate) on worker threads in batches and hands them back in order.
import { Worker } from 'node:worker_threads'
import type { NoteFile } from './collect.js'
import { PACK_WORKER_SOURCE } from './pack-worker.js'
import { ZIP_DEFLATED, ZIP_STORED, type PreparedEntry } from './prepared-entry.js'
import type { FileDigest } from './read-source.js'

/** A note ready for the archive, or one too large to pack whole (the caller streams it). */
export type PackedNote =
  | { kind: 'packed'; note: NoteFile; digest: FileDigest; entry: PreparedEntry }
  | { kind: 'large'; note: NoteFile }

export interface PackPoolOptions {
  workers: number
  /** Notes per message to a worker: amortises the message round trip over many small files. */
  batchFiles: number
  /** Batches handed out but not yet consumed, per worker: keeps workers busy and bounds memory. */
  batchesPerWorker: number
  /** Files of this size or more come back as `large`. */
  wholeReadBytes: number
  level: number
}

type WorkerResult =
  | {
      status: 'packed'
      size: number
      sha256: string
      crc32: number
      method: number
      offset: number
      length: number
    }
  | { status: 'missing' }
  | { status: 'large' }
  | { status: 'failed'; code?: string; message: string }

interface WorkerReply {
  id: number
  body: ArrayBuffer
  results: WorkerResult[]
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
function takeWorker(): PackWorker {
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
async function releaseWorker(worker: PackWorker): Promise<void> {
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
class PackWorker {
  readonly #worker: Worker
  readonly #pending = new Map<number, Pending>()
  #failure: unknown = undefined

  constructor() {
    this.#worker = new Worker(PACK_WORKER_SOURCE, {
      // Plain JavaScript: none of the parent's loaders (tsx under the benches and tests) need to start here.
      execArgv: [],
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: 1 },
    })
    this.#worker.on('message', (reply: WorkerReply) => {
      this.#pending.get(reply.id)?.resolve(reply)
      this.#pending.delete(reply.id)
    })
    this.#worker.on('error', (error) => this.#fail(error))
    this.#worker.on('exit', (code) => this.#fail(new Error(`a backup pack worker exited (code ${code})`)))
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
    for (const pending of this.#pending.values()) pending.reject(this.#failure)
    this.#pending.clear()
  }
}

export class PackPool {
  readonly #options: PackPoolOptions
  readonly #workers: PackWorker[]
  /** Each yielded batch's body and the thread it came from, until the batch is recycled. */
  readonly #bodies = new WeakMap<readonly PackedNote[], { worker: PackWorker; body: ArrayBuffer }>()
  #nextId = 0
  /** Set by close(): the threads may already pack for another pool. */
  #closed = false

  constructor(options: PackPoolOptions) {
    this.#options = options
    this.#workers = Array.from({ length: Math.max(1, options.workers) }, takeWorker)
  }

  /** The threads packing for this pool (a later pool may get the same ones back). */
  get threadIds(): number[] {
    return this.#workers.map((worker) => worker.threadId)
  }

  /**
   * Every note in order, packed (vanished ones left out), a batch at a time. Reads run ahead of the consumer
   * by at most `workers × batchesPerWorker` batches, so memory stays bounded whatever the tree's size.
   */
  async *pack(notes: readonly NoteFile[]): AsyncGenerator<PackedNote[]> {
    const { batchFiles, batchesPerWorker } = this.#options
    const limit = this.#workers.length * Math.max(1, batchesPerWorker)
    const size = Math.max(1, batchFiles)
    const inFlight: Promise<PackedNote[]>[] = []
    let next = 0
    for (;;) {
      while (inFlight.length < limit && next < notes.length) {
        const batch = notes.slice(next, (next += size))
        const packed = this.#packBatch(batch)
        packed.catch(() => undefined) // awaited in order below; handled now so an early failure is not "unhandled"
        inFlight.push(packed)
      }
      const packed = inFlight.shift()
      if (!packed) return
      yield await packed
    }
  }

  /**
   * Gives a batch's memory back to the thread that packed it: call once nothing will read the batch's entry
   * bodies again (they are empty afterwards). A batch never recycled is simply left to garbage collection.
   */
  recycle(batch: readonly PackedNote[]): void {
    const owner = this.#bodies.get(batch)
    if (!owner) return
    this.#bodies.delete(batch)
    owner.worker.recycle(owner.body)
  }

  /** Hands healthy idle threads on to the next pool (for IDLE_MS) and ends the rest. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await Promise.all(this.#workers.map(releaseWorker))
  }

  async #packBatch(batch: NoteFile[]): Promise<PackedNote[]> {
    if (this.#closed) throw new Error('the backup pack pool is closed')
    const worker = this.#workers.reduce((idlest, each) =>
      each.outstanding < idlest.outstanding ? each : idlest,
    )
    const { wholeReadBytes, level } = this.#options
    const files = batch.map((note) => note.file)
    const reply = await worker.run(this.#nextId++, { files, wholeReadBytes, level })
    const body = Buffer.from(reply.body)
    const packed: PackedNote[] = []
    reply.results.forEach((result, index) => {
      const note = batch[index] as NoteFile
      if (result.status === 'failed')
        throw Object.assign(new Error(`${result.message} (${note.file})`), { code: result.code })
      if (result.status === 'large') packed.push({ kind: 'large', note })
      if (result.status !== 'packed') return
      const entry: PreparedEntry = {
        method: result.method === ZIP_DEFLATED ? ZIP_DEFLATED : ZIP_STORED,
        body: body.subarray(result.offset, result.offset + result.length),
        crc32: result.crc32,
        size: result.size,
      }
      packed.push({ kind: 'packed', note, digest: { size: result.size, sha256: result.sha256 }, entry })
    })
    this.#bodies.set(packed, { worker, body: reply.body })
    return packed
  }
}
