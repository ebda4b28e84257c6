// Keeps the central directory headers of written entries as bytes, in chunks, until the directory is written.

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
  readonly #bytes: Buffer
  #used = 0
  #written = false

  constructor(bytes: number) {
    // Not from Buffer's shared pool: a chunk is kept whole until the end, and must keep nothing else alive.
    this.#bytes = Buffer.allocUnsafeSlow(bytes)
  }

  getGeneralPurposeBit(): typeof NO_DATA_DESCRIPTOR {
    return NO_DATA_DESCRIPTOR
  }

  /** Copies `header` in; false (copying nothing) when it does not fit. */
  tryAdd(header: Buffer): boolean {
    if (this.#used + header.length > this.#bytes.length) return false
    this.#used += header.copy(this.#bytes, this.#used)
    return true
  }

  /** Every header of the run the first time the directory writer meets the run, then nothing. */
  takeBytes(): Buffer | undefined {
    if (this.#written) return undefined
    this.#written = true
    return this.#bytes.subarray(0, this.#used)
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
    if (this.#current?.tryAdd(header)) return this.#current
    this.#current = new CentralHeaderChunk(Math.max(CHUNK_BYTES, header.length))
    this.#current.tryAdd(header)
    return this.#current
  }

  /** The next entry is kept as an entry object: headers after it start a new run. */
  endRun(): void {
    this.#current = undefined
  }
}
