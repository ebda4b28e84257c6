// Streams note files into a zip on disk with archiver, hashing each as it is read; the manifest goes last.
import { createWriteStream, type WriteStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ZipArchive } from 'archiver'
import { batchWrites } from './batch-writes.js'
import type { NoteFile } from './collect.js'
import { buildManifest, MANIFEST_NAME, type BackupManifest, type ManifestEntry } from './manifest.js'
import { ReadAhead, type StreamSource } from './read-source.js'

/**
 * Knobs measured in bench/backup.bench.ts against `zip -r`. archiver spends most of its time per entry, not
 * per byte: every deflated entry costs a zlib stream and thread-pool round trips (~0.2 ms each), while a
 * stored one is a CRC over bytes already in memory. So small notes are stored and larger files deflated.
 */
export interface ZipTuning {
  /** Files smaller than this are stored uncompressed. @default 8192 */
  storeBelowBytes: number
  /** zlib level for deflated entries. @default 6 */
  level: number
  /** Files below this size are read in one call and appended whole; larger ones stream. @default 65536 */
  wholeReadBytes: number
  /** Reads in flight ahead of the archiver. @default 16 */
  readAhead: number
  /** Entries appended but not yet written by archiver; with the output's drain, bounds memory. @default 16 */
  maxQueuedEntries: number
  /** archiver's internal buffer. @default 1 MiB */
  highWaterMark: number
  /** Small archive chunks are joined into writes of this size. @default 256 KiB */
  writeBatchBytes: number
}

export const DEFAULT_ZIP_TUNING: ZipTuning = {
  storeBelowBytes: 8 * 1024,
  level: 6,
  wholeReadBytes: 64 * 1024,
  readAhead: 16,
  maxQueuedEntries: 16,
  highWaterMark: 1024 * 1024,
  writeBatchBytes: 256 * 1024,
}

export interface WrittenZip {
  manifest: BackupManifest
  /** Archive size on disk. */
  bytes: number
}

/**
 * Writes `notes` to a new file `target` (which must not exist) without ever holding the archive in memory.
 * The file is fsynced before this resolves; on failure it may be left partial for the caller to remove.
 */
export async function writeBackupZip(
  target: string,
  notes: readonly NoteFile[],
  meta: Pick<BackupManifest, 'createdAt' | 'mode' | 'chatJid'>,
  tuning: ZipTuning = DEFAULT_ZIP_TUNING,
): Promise<WrittenZip> {
  const archive = new ZipArchive({ zlib: { level: tuning.level }, highWaterMark: tuning.highWaterMark })
  const output = createWriteStream(target, { flags: 'wx', flush: true })
  const done = pipeline(archive, batchWrites(tuning.writeBatchBytes), output)
  done.catch(() => undefined) // awaited below; marked handled so an early archiver error is not "unhandled"
  const feed = new ArchiveFeed(archive, output, tuning.maxQueuedEntries)
  const date = new Date(meta.createdAt)
  try {
    const files = await appendNotes(feed, notes, date, tuning)
    const manifest = buildManifest(meta, files)
    await feed.append(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_NAME, date, false)
    await Promise.all([archive.finalize(), done])
    return { manifest, bytes: archive.pointer() }
  } catch (error) {
    feed.abort(error)
    await done.catch(() => undefined)
    throw error
  }
}

async function appendNotes(
  feed: ArchiveFeed,
  notes: readonly NoteFile[],
  date: Date,
  tuning: ZipTuning,
): Promise<ManifestEntry[]> {
  const reads = new ReadAhead(notes, tuning.readAhead, tuning.wholeReadBytes)
  // Only digests are kept, never contents: memory stays at the read-ahead window, not the tree.
  const entries: ManifestEntry[] = []
  const streamed: { index: number; source: StreamSource }[] = []
  try {
    for (let source = await reads.next(); source; source = await reads.next()) {
      const { path } = source.note
      if (source.kind === 'whole') {
        entries.push({ path, ...source.digest })
        await feed.append(source.data, path, date, source.data.length < tuning.storeBelowBytes)
      } else {
        streamed.push({ index: entries.push({ path, size: 0, sha256: '' }) - 1, source })
        feed.watch(source.stream)
        await feed.append(source.stream, path, date, false)
      }
    }
    // Streamed digests are final only once archiver has consumed those streams.
    await feed.idle()
  } catch (error) {
    await reads.release()
    for (const { source } of streamed) source.stream.destroy()
    throw error
  }
  for (const { index, source } of streamed) {
    const digest = source.digest()
    if (!digest) throw new Error(`internal: ${source.note.path} was archived but its stream never ended`)
    entries[index] = { path: source.note.path, ...digest }
  }
  return entries
}

/** Appends entries one at a time with backpressure: waits while archiver's queue or the disk is behind. */
class ArchiveFeed {
  readonly #archive: ZipArchive
  readonly #output: WriteStream
  readonly #maxQueued: number
  #appended = 0
  #processed = 0
  #failure: unknown = undefined
  #failed = false
  #wake: (() => void) | undefined

  constructor(archive: ZipArchive, output: WriteStream, maxQueued: number) {
    this.#archive = archive
    this.#output = output
    this.#maxQueued = Math.max(1, maxQueued)
    archive.on('entry', () => {
      this.#processed++
      this.#notify()
    })
    // archiver only warns about stat failures of paths it globbed; we never glob, so a warning is a bug.
    archive.on('warning', (error) => this.abort(error))
    archive.on('error', (error) => this.abort(error))
    output.on('drain', () => this.#notify())
    output.on('error', (error) => this.abort(error))
  }

  async append(source: Buffer | Readable, name: string, date: Date, store: boolean): Promise<void> {
    const queued = (): number => this.#appended - this.#processed
    await this.#waitUntil(() => queued() < this.#maxQueued && !this.#output.writableNeedDrain)
    this.#archive.append(source, { name, date, store })
    this.#appended++
  }

  /** Resolves when every appended entry has been written into the archive stream. */
  async idle(): Promise<void> {
    await this.#waitUntil(() => this.#processed >= this.#appended)
  }

  /** A streamed source failing mid-read must fail the archive: archiver would wait on it forever. */
  watch(stream: Readable): void {
    stream.once('error', (error) => this.abort(error))
  }

  abort(error: unknown): void {
    if (this.#failed) return
    this.#failed = true
    this.#failure = error
    this.#archive.destroy(error instanceof Error ? error : new Error(String(error)))
    this.#notify()
  }

  async #waitUntil(ready: () => boolean): Promise<void> {
    while (!this.#failed && !ready()) await new Promise<void>((resolve) => (this.#wake = resolve))
    if (this.#failed) throw this.#failure
  }

  #notify(): void {
    const wake = this.#wake
    this.#wake = undefined
    wake?.()
  }
}
