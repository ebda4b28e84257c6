// Deflates manifest.json while the backup runs, entry by entry in note order, so its whole text is never held in memory.
import { once } from 'node:events'
import { createDeflateRaw, crc32, type DeflateRaw } from 'node:zlib'
import { buildManifest, type BackupManifest, type ManifestEntry } from './manifest.js'
import { ZIP_DEFLATED, type PreparedEntry } from './prepared-entry.js'
import type { StreamSource } from './read-source.js'

/** Text handed to zlib at a time: large enough that its thread-pool round trips are rare. */
const CHUNK_CHARS = 64 * 1024

/**
 * Builds exactly `JSON.stringify(manifest, null, 2) + '\n'` (what every earlier backup held) from entries added
 * in order, deflating it in chunks on zlib's thread pool as it grows. 20,000 notes make about 3.5 MB of text.
 */
export class ManifestStream {
  readonly #deflate: DeflateRaw
  readonly #compressed: Buffer[] = []
  readonly #tail: string
  #pending: string
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
    this.#pending = empty.slice(0, at + 1)
    this.#tail = `${empty.slice(at + 1)}\n`
  }

  add(entry: ManifestEntry): void {
    // The same text JSON.stringify(…, null, 2) gives one entry at this depth; sha256 is hex, size an integer.
    this.#pending +=
      `${this.#count++ === 0 ? '\n' : ',\n'}    {\n      "path": ${JSON.stringify(entry.path)},\n` +
      `      "size": ${entry.size},\n      "sha256": "${entry.sha256}"\n    }`
    if (this.#pending.length >= CHUNK_CHARS) this.#write(false)
  }

  /** The finished manifest as a deflated zip entry body, with its CRC-32 and size. */
  async finish(): Promise<PreparedEntry> {
    this.#pending += this.#count === 0 ? this.#tail : `\n  ${this.#tail}`
    if (this.#failure) throw this.#failure
    const ended = once(this.#deflate, 'end')
    this.#write(true)
    await ended
    return { method: ZIP_DEFLATED, body: Buffer.concat(this.#compressed), crc32: this.#crc, size: this.#size }
  }

  /** Stops deflating (the backup failed). */
  abort(): void {
    this.#deflate.destroy()
  }

  #write(last: boolean): void {
    const bytes = Buffer.from(this.#pending)
    this.#pending = ''
    this.#crc = crc32(bytes, this.#crc)
    this.#size += bytes.length
    if (last) this.#deflate.end(bytes)
    else this.#deflate.write(bytes)
  }
}

/**
 * The manifest's entries in note order, each handed to the manifest stream as soon as it and all before it are
 * final: a streamed note's digest is known only once archiver has read it to its end.
 */
export class ManifestEntries {
  readonly #manifest: ManifestStream
  readonly #entries: ManifestEntry[] = []
  readonly #streamed = new Map<number, StreamSource>()
  #written = 0

  constructor(manifest: ManifestStream) {
    this.#manifest = manifest
  }

  add(entry: ManifestEntry): void {
    this.#entries.push(entry)
    this.#writeFinal()
  }

  addStreamed(source: StreamSource): void {
    this.#streamed.set(this.#entries.push({ path: source.note.path, size: 0, sha256: '' }) - 1, source)
  }

  destroyStreams(): void {
    for (const source of this.#streamed.values()) source.stream.destroy()
  }

  finish(): ManifestEntry[] {
    this.#writeFinal()
    const [unfinished] = this.#streamed.values()
    if (unfinished)
      throw new Error(`internal: ${unfinished.note.path} was archived but its stream never ended`)
    return this.#entries
  }

  #writeFinal(): void {
    for (; this.#written < this.#entries.length; this.#written++) {
      const source = this.#streamed.get(this.#written)
      if (source) {
        const digest = source.digest()
        if (!digest) return
        this.#streamed.delete(this.#written)
        this.#entries[this.#written] = { path: source.note.path, ...digest }
      }
      this.#manifest.add(this.#entries[this.#written] as ManifestEntry)
    }
  }
}
