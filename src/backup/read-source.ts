// Reads each note exactly once, hashing as it goes: small files whole, large ones as a hashed stream.
import { createHash, type Hash } from 'node:crypto'
import { close, open, read } from 'node:fs'
import { Readable } from 'node:stream'
import { promisify } from 'node:util'
import { isMissing, type NoteFile } from './collect.js'

// Callback fs promisified measures about twice as fast as fs/promises for thousands of tiny reads.
const openFd = promisify(open)
const readFd = promisify(read)
const closeFd = promisify(close)

const STREAM_CHUNK_BYTES = 1024 * 1024

export interface FileDigest {
  size: number
  sha256: string
}

export interface WholeSource {
  kind: 'whole'
  note: NoteFile
  data: Buffer
  digest: FileDigest
}

export interface StreamSource {
  kind: 'stream'
  note: NoteFile
  stream: Readable
  /** Final once the stream has been read to its end. */
  digest(): FileDigest | undefined
  /** Closes the file if the stream was never consumed. */
  release(): Promise<void>
}

export type NoteSource = WholeSource | StreamSource

/**
 * Opens `note` and reads its first `scratch.length` bytes into `scratch`; a file that fits comes back whole
 * (copied out, so `scratch` can be reused), a longer one as a stream that starts with `scratch` and continues
 * from there (no byte is read twice; `scratch` then belongs to the stream). Undefined when the file vanished.
 */
export async function openNoteSource(note: NoteFile, scratch: Buffer): Promise<NoteSource | undefined> {
  let fd: number
  try {
    fd = await openFd(note.file, 'r')
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
  let handedOver = false
  try {
    const { bytesRead } = await readFd(fd, scratch, 0, scratch.length, null)
    const hash = createHash('sha256')
    if (bytesRead < scratch.length) {
      const data = Buffer.from(scratch.subarray(0, bytesRead))
      const digest = { size: bytesRead, sha256: hash.update(data).digest('hex') }
      return { kind: 'whole', note, data, digest }
    }
    handedOver = true
    return streamFrom(fd, note, scratch, hash.update(scratch))
  } finally {
    if (!handedOver) await closeFd(fd)
  }
}

function streamFrom(fd: number, note: NoteFile, first: Buffer, hash: Hash): StreamSource {
  let size = first.length
  let digest: FileDigest | undefined
  let closed = false
  const release = async (): Promise<void> => {
    if (closed) return
    closed = true
    await closeFd(fd)
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      yield first
      for (;;) {
        const buffer = Buffer.allocUnsafe(STREAM_CHUNK_BYTES)
        const { bytesRead } = await readFd(fd, buffer, 0, buffer.length, null)
        if (bytesRead === 0) break
        const chunk = buffer.subarray(0, bytesRead)
        hash.update(chunk)
        size += bytesRead
        yield chunk
      }
      digest = { size, sha256: hash.digest('hex') }
    } finally {
      await release()
    }
  }
  const stream = Readable.from(chunks(), { objectMode: false })
  return { kind: 'stream', note, stream, digest: () => digest, release }
}

/** Keeps up to `depth` reads in flight ahead of the consumer, in order, so disk waits overlap archiving. */
export class ReadAhead {
  readonly #notes: readonly NoteFile[]
  readonly #depth: number
  readonly #wholeReadBytes: number
  readonly #pending: Promise<NoteSource | undefined>[] = []
  // Read buffers are recycled: allocating a fresh one per note made GC a sixth of the backup's time.
  readonly #scratch: Buffer[] = []
  #next = 0

  constructor(notes: readonly NoteFile[], depth: number, wholeReadBytes: number) {
    this.#notes = notes
    this.#depth = Math.max(1, depth)
    this.#wholeReadBytes = wholeReadBytes
  }

  /** The next readable note in order (vanished ones skipped), or undefined at the end. */
  async next(): Promise<NoteSource | undefined> {
    for (;;) {
      this.#fill()
      const read = this.#pending.shift()
      if (!read) return undefined
      const source = await read
      if (source) return source
    }
  }

  /** Closes whatever was read ahead but never consumed (after a failure). */
  async release(): Promise<void> {
    const pending = this.#pending.splice(0)
    for (const read of pending) {
      const source = await read.catch(() => undefined)
      if (source?.kind === 'stream') await source.release()
    }
  }

  #fill(): void {
    while (this.#pending.length < this.#depth && this.#next < this.#notes.length) {
      const note = this.#notes[this.#next++] as NoteFile
      const scratch = this.#scratch.pop() ?? Buffer.allocUnsafe(this.#wholeReadBytes)
      const read = openNoteSource(note, scratch).then((source) => {
        if (source?.kind !== 'stream') this.#scratch.push(scratch)
        return source
      })
      // Reads are awaited in order later; mark them handled now so an early failure is not "unhandled".
      read.catch(() => undefined)
      this.#pending.push(read)
    }
  }
}
