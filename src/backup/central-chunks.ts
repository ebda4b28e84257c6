// Keeps the central directory headers of written entries as bytes, in chunks, until the directory is written.
import { headerTarget, type HeaderTarget } from './header-bytes.js'

/** Large enough that a 20,000-note directory is a few dozen chunks, small enough to waste little at the end. */
const CHUNK_BYTES = 64 * 1024

/** What the engine's `_afterAppend` asks of every entry it keeps: headers here never use a data descriptor. */
const NO_DATA_DESCRIPTOR = { usesDataDescriptor: (): boolean => false }

/**
 * A run of consecutive entries' central directory headers, already encoded. The engine keeps this one object
 * in its entry list for each entry in the run (an array slot each), instead of an object per entry that lives
 * until the end of the backup: at 20,000 notes those were 2.5 MiB of heap, surviving every young-generation
 * collection on the way, which is what makes V8 grow its young generation.
 */
export class CentralHeaderChunk {
  /** Where headers are encoded in place. */
  readonly target: HeaderTarget
  #used = 0
  #written = false

  constructor(bytes: number) {
    // Not from Buffer's shared pool: a chunk is kept whole until the end, and must keep nothing else alive.
    this.target = headerTarget(Buffer.allocUnsafeSlow(bytes))
  }

  getGeneralPurposeBit(): typeof NO_DATA_DESCRIPTOR {
    return NO_DATA_DESCRIPTOR
  }

  /** Where the next `length` bytes of headers go in `target.bytes`, now counted as used; -1 when they do not fit. */
  reserve(length: number): number {
    if (this.#used + length > this.target.bytes.length) return -1
    this.#used += length
    return this.#used - length
  }

  /** Every header of the run the first time the directory writer meets the run, then nothing. */
  takeBytes(): Buffer | undefined {
    if (this.#written) return undefined
    this.#written = true
    return this.target.bytes.subarray(0, this.#used)
  }
}

/**
 * Hands out the chunk each next header goes into. The central directory lists entries in the order they were
 * written, so a run ends where an entry is kept some other way (`endRun`); the next header starts a new chunk.
 */
export class CentralHeaderChunks {
  #current: CentralHeaderChunk | undefined

  /** The chunk now holding `header`, to stand in the engine's entry list for its entry. */
  add(header: Buffer): CentralHeaderChunk {
    return this.addEncoded(header.length, (target, at) => header.copy(target.bytes, at))
  }

  /** The chunk `encode` has just written a header of `length` bytes into (at `at` of its target). */
  addEncoded(length: number, encode: (target: HeaderTarget, at: number) => void): CentralHeaderChunk {
    let chunk = this.#current
    let at = chunk ? chunk.reserve(length) : -1
    if (!chunk || at < 0) {
      chunk = this.#current = new CentralHeaderChunk(Math.max(CHUNK_BYTES, length))
      at = chunk.reserve(length)
    }
    encode(chunk.target, at)
    return chunk
  }

  /** The next entry is kept as an entry object: headers after it start a new run. */
  endRun(): void {
    this.#current = undefined
  }
}
