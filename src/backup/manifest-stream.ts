// Deflates manifest.json while the backup runs, entry by entry in note order, so its whole text is never held in memory.
import { once } from 'node:events'
import { createDeflateRaw, crc32, type DeflateRaw } from 'node:zlib'
import { buildManifest, type BackupManifest, type ManifestEntry } from './manifest.js'
import { ZIP_DEFLATED, type PreparedEntry } from './prepared-entry.js'
import type { StreamSource } from './read-source.js'

/** Text handed to zlib at a time: large enough that its thread-pool round trips are rare. */
const CHUNK_BYTES = 64 * 1024
/** The most UTF-8 bytes one UTF-16 code unit can take. */
const MAX_BYTES_PER_UNIT = 3

/**
 * Builds exactly `JSON.stringify(manifest, null, 2) + '\n'` (what every earlier backup held) from entries added
 * in order, deflating it in chunks on zlib's thread pool as it grows. 20,000 notes make about 3.5 MB of text.
 * Each entry's text is written into the chunk's bytes at once, not joined onto a string: a 64 KiB string built
 * by `+=` is a tree of several hundred small strings, alive across young-generation collections.
 */
export class ManifestStream {
  readonly #deflate: DeflateRaw
  readonly #compressed: Buffer[] = []
  readonly #tail: string
  #chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES)
  #used = 0
  #failure: Error | undefined
  #count = 0
  #crc = 0
  #size = 0

  constructor(meta: Pick<BackupManifest, 'createdAt' | 'mode' | 'chatJid'>, level: number) {
    this.#deflate = createDeflateRaw({ level })
    this.#deflate.on('data', (chunk: Buffer) => this.#compressed.push(chunk))
    this.#deflate.on('error', (error) => (this.#failure ??= error))
    // The files list is the manifest's last key: its text splits into what comes before it and after.
    const empty = JSON.stringify(buildManifest(meta, []), null, 2)
    const at = empty.lastIndexOf('[]')
    this.#append(empty.slice(0, at + 1))
    this.#tail = `${empty.slice(at + 1)}\n`
  }

  add(entry: ManifestEntry): void {
    // The same text JSON.stringify(…, null, 2) gives one entry at this depth; sha256 is hex, size an integer.
    this.#append(
      `${this.#count++ === 0 ? '\n' : ',\n'}    {\n      "path": ${JSON.stringify(entry.path)},\n` +
        `      "size": ${entry.size},\n      "sha256": "${entry.sha256}"\n    }`,
    )
  }

  /** The finished manifest as a deflated zip entry body, with its CRC-32 and size. */
  async finish(): Promise<PreparedEntry> {
    this.#append(this.#count === 0 ? this.#tail : `\n  ${this.#tail}`)
    if (this.#failure) throw this.#failure
    const ended = once(this.#deflate, 'end')
    this.#write(this.#chunk.subarray(0, this.#used), true)
    await ended
    return { method: ZIP_DEFLATED, body: Buffer.concat(this.#compressed), crc32: this.#crc, size: this.#size }
  }

  /** Stops deflating (the backup failed). */
  abort(): void {
    this.#deflate.destroy()
  }

  #append(text: string): void {
    if (this.#used + text.length * MAX_BYTES_PER_UNIT > this.#chunk.length) {
      if (this.#used > 0) this.#write(this.#chunk.subarray(0, this.#used), false)
      // zlib reads a written chunk later, on its thread pool: the next text goes into a new one.
      this.#chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, text.length * MAX_BYTES_PER_UNIT))
      this.#used = 0
    }
    this.#used += this.#chunk.write(text, this.#used)
  }

  #write(bytes: Buffer, last: boolean): void {
    this.#crc = crc32(bytes, this.#crc)
    this.#size += bytes.length
    if (last) this.#deflate.end(bytes)
    else this.#deflate.write(bytes)
  }
}

/** SHA-256 digest bytes per entry, kept as bytes while the backup runs. */
const DIGEST_BYTES = 32

/**
 * The manifest's entries in note order, each handed to the manifest stream as soon as it and all before it are
 * final: a streamed note's digest is known only once archiver has read it to its end.
 *
 * Until `finish()` an entry is its path (the listed note's string), a size and 32 digest bytes outside the JS
 * heap, not an object holding a 64-character hex string: those were 280 bytes of heap per note (5.7 MiB at
 * 20,000) surviving every young-generation collection of the backup, which made V8 double its young generation.
 */
export class ManifestEntries {
  readonly #manifest: ManifestStream
  readonly #paths: string[]
  #sizes: Float64Array
  #digests: Buffer
  readonly #streamed = new Map<number, StreamSource>()
  #count = 0
  #written = 0

  /** `expected`: how many entries to make room for at once (more still fit, growing as they come). */
  constructor(manifest: ManifestStream, expected = 0) {
    this.#manifest = manifest
    const capacity = Math.max(64, expected)
    // Sized once: a list grown entry by entry leaves a trail of outgrown copies on the young generation.
    this.#paths = new Array<string>(capacity)
    this.#sizes = new Float64Array(capacity)
    this.#digests = Buffer.allocUnsafeSlow(capacity * DIGEST_BYTES)
  }

  add(entry: ManifestEntry): void {
    const index = this.#reserve(entry.path)
    this.#record(index, entry)
    // The usual case, nothing ahead waiting for a stream: the entry goes to the manifest as it came.
    if (this.#written === index) {
      this.#manifest.add(entry)
      this.#written++
    } else this.#writeFinal()
  }

  addStreamed(source: StreamSource): void {
    this.#streamed.set(this.#reserve(source.note.path), source)
  }

  destroyStreams(): void {
    for (const source of this.#streamed.values()) source.stream.destroy()
  }

  /** Hands the last entries to the manifest stream; every streamed note must have ended by now. */
  finish(): void {
    this.#writeFinal()
    const [unfinished] = this.#streamed.values()
    if (unfinished)
      throw new Error(`internal: ${unfinished.note.path} was archived but its stream never ended`)
  }

  /** Every entry, in note order, as the objects the manifest lists (call after `finish`). */
  list(): ManifestEntry[] {
    return Array.from({ length: this.#count }, (_, index) => this.#entry(index))
  }

  #reserve(path: string): number {
    const index = this.#count++
    if (index === this.#sizes.length) {
      const sizes = new Float64Array(index * 2)
      sizes.set(this.#sizes)
      this.#sizes = sizes
      const digests = Buffer.allocUnsafeSlow(index * 2 * DIGEST_BYTES)
      this.#digests.copy(digests)
      this.#digests = digests
    }
    this.#paths[index] = path
    this.#sizes[index] = 0
    return index
  }

  #record(index: number, digest: { size: number; sha256: string }): void {
    this.#sizes[index] = digest.size
    if (this.#digests.write(digest.sha256, index * DIGEST_BYTES, 'hex') !== DIGEST_BYTES)
      throw new Error(`internal: ${this.#paths[index]} has no sha256 digest`)
  }

  #entry(index: number): ManifestEntry {
    const at = index * DIGEST_BYTES
    const sha256 = this.#digests.toString('hex', at, at + DIGEST_BYTES)
    return { path: this.#paths[index] as string, size: this.#sizes[index] as number, sha256 }
  }

  #writeFinal(): void {
    for (; this.#written < this.#count; this.#written++) {
      const source = this.#streamed.get(this.#written)
      if (source) {
        const digest = source.digest()
        if (!digest) return
        this.#streamed.delete(this.#written)
        this.#record(this.#written, digest)
      }
      this.#manifest.add(this.#entry(this.#written))
    }
  }
}
