// Packs notes (read, sha256, CRC-32, deflate) in batches on worker threads, and on the main thread while it would
// otherwise wait for them, and hands them back in order.
import type { NoteFile } from './collect.js'
import { PackWorker, releaseWorker, takeWorker } from './pack-thread.js'
import { createLocalPacker, type LocalPacker, type PackedFiles, type PackResult } from './pack-worker.js'
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
  /**
   * Pack batches on the calling thread while no thread is ready (starting one takes ~30 ms) or the next batch
   * is still on a thread: both cores work, and the archive starts at once. @default true
   */
  packHere?: boolean
}

/** A batch handed out, in order: packed here (settled at once) or on a thread. */
interface Slot {
  packed: Promise<PackedNote[]>
  settled: boolean
}

/** Batches packed ahead of the one awaited, as a multiple of the threads' share: bounds memory. */
const SLOTS_PER_THREAD_BATCH = 4

export class PackPool {
  readonly #options: PackPoolOptions
  readonly #workers: PackWorker[]
  /** Each yielded batch's body and who packed it, until the batch is recycled. */
  readonly #bodies = new WeakMap<
    readonly PackedNote[],
    { owner: PackWorker | LocalPacker; body: ArrayBuffer }
  >()
  #local: LocalPacker | undefined
  #nextId = 0
  /** Set by close(): the threads may already pack for another pool. */
  #closed = false
  /** Batches packed so far, on this thread and on the pool's threads. */
  readonly batchesPacked = { here: 0, onThreads: 0 }

  constructor(options: PackPoolOptions) {
    this.#options = options
    this.#workers = Array.from({ length: Math.max(1, options.workers) }, takeWorker)
  }

  /** The threads packing for this pool (a later pool may get the same ones back). */
  get threadIds(): number[] {
    return this.#workers.map((worker) => worker.threadId)
  }

  /** Resolves once every thread of the pool has started. */
  async threadsReady(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.ready))
  }

  /**
   * Every note in order, packed (vanished ones left out), a batch at a time. A started thread gets up to
   * `batchesPerWorker` batches; while none can take one, or the batch to hand over next is still on a thread,
   * this thread packs the next batch itself. Batches run ahead of the consumer by a bounded number, so memory
   * stays bounded whatever the tree's size.
   */
  async *pack(notes: readonly NoteFile[]): AsyncGenerator<PackedNote[]> {
    const { batchFiles, batchesPerWorker, packHere = true } = this.#options
    const perWorker = Math.max(1, batchesPerWorker)
    const maxSlots = this.#workers.length * perWorker * (packHere ? SLOTS_PER_THREAD_BATCH : 1)
    const size = Math.max(1, batchFiles)
    const slots: Slot[] = []
    let next = 0
    const nextBatch = (): NoteFile[] => notes.slice(next, (next += size))
    const hasRoom = (): boolean => next < notes.length && slots.length < maxSlots
    for (;;) {
      this.#refuseIfClosed()
      let worker: PackWorker | undefined
      while (hasRoom() && (worker = this.#freeWorker(perWorker)))
        slots.push(this.#packOnThread(worker, nextBatch()))
      const head = slots[0]
      if (hasRoom() && !head?.settled) {
        if (packHere) {
          slots.push(this.#packHere(nextBatch()))
          // Lets the threads' replies in before packing more here: a thread whose batches are done would
          // otherwise wait for this one to hand it new ones (at 20,000 notes the pack thread used 0.7-0.9 s of
          // CPU to this thread's 1.4-1.8 s; with the turn, 1.0 s to 1.1 s).
          await new Promise(setImmediate)
          continue
        }
        if (!head) {
          await Promise.race(this.#workers.map((worker) => worker.ready))
          continue
        }
      }
      if (!head) return
      slots.shift()
      yield await head.packed
    }
  }

  /**
   * Gives a batch's memory back to whoever packed it: call once nothing will read the batch's entry bodies
   * again (they are empty afterwards). A batch never recycled is simply left to garbage collection.
   */
  recycle(batch: readonly PackedNote[]): void {
    const owned = this.#bodies.get(batch)
    if (!owned) return
    this.#bodies.delete(batch)
    if (owned.owner instanceof PackWorker) return owned.owner.recycle(owned.body)
    // Moved out, so the batch's views of it are empty here too, as after a transfer to a thread.
    owned.owner.recycleBody(structuredClone(owned.body, { transfer: [owned.body] }))
  }

  /** Hands healthy idle threads on to the next pool (for IDLE_MS) and ends the rest. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await Promise.all(this.#workers.map(releaseWorker))
  }

  #refuseIfClosed(): void {
    if (this.#closed) throw new Error('the backup pack pool is closed')
  }

  /** The started thread owing the fewest batches, if it owes fewer than `perWorker`. */
  #freeWorker(perWorker: number): PackWorker | undefined {
    let free: PackWorker | undefined
    for (const worker of this.#workers)
      if (worker.isReady && worker.outstanding < (free?.outstanding ?? perWorker)) free = worker
    return free
  }

  #packOnThread(worker: PackWorker, batch: NoteFile[]): Slot {
    const { wholeReadBytes, level } = this.#options
    const files = batch.map((note) => note.file)
    const slot: Slot = {
      packed: worker.run(this.#nextId++, { files, wholeReadBytes, level }).then((reply) => {
        this.batchesPacked.onThreads++
        return this.#toPackedNotes(batch, reply, worker)
      }),
      settled: false,
    }
    slot.packed.then(
      () => (slot.settled = true),
      () => (slot.settled = true), // awaited in order by pack(); handled now so an early failure is not "unhandled"
    )
    return slot
  }

  #packHere(batch: NoteFile[]): Slot {
    const { wholeReadBytes, level } = this.#options
    this.#local ??= createLocalPacker()
    const files = batch.map((note) => note.file)
    let packed: Promise<PackedNote[]>
    try {
      packed = Promise.resolve(
        this.#toPackedNotes(batch, this.#local.packFiles(files, wholeReadBytes, level), this.#local),
      )
      this.batchesPacked.here++
    } catch (error) {
      packed = Promise.reject(error)
      packed.catch(() => undefined) // awaited in order by pack()
    }
    return { packed, settled: true }
  }

  #toPackedNotes(batch: NoteFile[], reply: PackedFiles, owner: PackWorker | LocalPacker): PackedNote[] {
    const body = Buffer.from(reply.body)
    const packed: PackedNote[] = []
    reply.results.forEach((result: PackResult, index) => {
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
    this.#bodies.set(packed, { owner, body: reply.body })
    return packed
  }
}
