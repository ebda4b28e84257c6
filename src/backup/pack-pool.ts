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
  #nextId = 0

  constructor(options: PackPoolOptions) {
    this.#options = options
    this.#workers = Array.from({ length: Math.max(1, options.workers) }, () => new PackWorker())
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

  async close(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.close()))
  }

  async #packBatch(batch: NoteFile[]): Promise<PackedNote[]> {
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
    return packed
  }
}
