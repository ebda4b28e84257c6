// Streams note files into a zip on disk with archiver, compressed ahead by workers; the manifest goes last.
import { once } from 'node:events'
import { createWriteStream, type WriteStream } from 'node:fs'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ZipArchive } from 'archiver'
import type { NoteFile } from './collect.js'
import { buildManifest, MANIFEST_NAME, type BackupManifest } from './manifest.js'
import { prepareEntry, type PreparedEntry } from './prepared-entry.js'
import { PreparedZip } from './prepared-zip.js'
import { ManifestEntries, ManifestStream } from './manifest-stream.js'
import { openNoteSource } from './read-source.js'
import { PackPool, type PackedNote } from './pack-pool.js'

/**
 * Knobs measured in bench/backup.bench.ts against `zip -r`. archiver's own per-entry cost is a zlib stream
 * and a JS CRC per deflated entry; so notes are read, hashed, CRC'd and deflated in batches (on a worker
 * thread, and on the main thread while it would wait), and archiver only writes the prepared bodies with
 * their headers.
 */
export interface ZipTuning {
  /**
   * zlib level for deflated entries. 1, not zip's 6: deflating is most of a backup's CPU, and on the bench's notes
   * level 1 took 25% less of it than level 4 (34 vs 46 µs a note) for an archive 3.0% larger than `zip -r`'s at
   * 2,000 and at 20,000 notes (level 4: 0.5% smaller; 2 and 3: 2.4% and 2.1% larger, 9% and 13% slower than 1).
   * @default 1
   */
  level: number
  /** Files below this size are packed whole by a worker; larger ones stream through archiver. @default 65536 */
  wholeReadBytes: number
  /**
   * Worker threads packing notes. One keeps deflate off the main thread, where archiver runs; a second
   * was at most 1.3× faster on the loaded 2-core machine and cost ~10 MiB more peak RSS. @default 1
   */
  packWorkers: number
  /**
   * The main thread packs too, while no worker has started or the next batch is still on one: a fresh process's
   * 2,000-note backup no longer waits ~30 ms for its worker to start, and both cores deflate. @default true
   */
  packHere: boolean
  /** Notes per batch sent to a worker. @default 32 */
  batchFiles: number
  /** Batches in flight per worker, ahead of the archive. @default 2 */
  batchesPerWorker: number
  /** Entries appended but not yet written by archiver; with the output's drain, bounds memory. @default 16 */
  maxQueuedEntries: number
  /** archiver's internal buffer. @default 1 MiB */
  highWaterMark: number
  /** archiver's many small header writes are joined into chunks of this size. @default 64 KiB */
  writeBatchBytes: number
}

export const DEFAULT_ZIP_TUNING: ZipTuning = {
  level: 1,
  wholeReadBytes: 64 * 1024,
  packWorkers: 1,
  packHere: true,
  batchFiles: 32,
  batchesPerWorker: 2,
  maxQueuedEntries: 16,
  highWaterMark: 1024 * 1024,
  writeBatchBytes: 64 * 1024,
}

export interface WrittenZip {
  manifest: BackupManifest
  /** Archive size on disk. */
  bytes: number
}

/**
 * Writes `notes` to a new file `target` (which must not exist) without ever holding the archive in memory.
 * The file is fsynced before this resolves; on failure it may be left partial for the caller to remove.
 * `notes` may still be being listed: the pack workers start up meanwhile.
 */
export async function writeBackupZip(
  target: string,
  notes: readonly NoteFile[] | Promise<readonly NoteFile[]>,
  meta: Pick<BackupManifest, 'createdAt' | 'mode' | 'chatJid'>,
  tuning: ZipTuning = DEFAULT_ZIP_TUNING,
): Promise<WrittenZip> {
  const archive = new ZipArchive({ zlib: { level: tuning.level }, highWaterMark: tuning.highWaterMark })
  const output = createWriteStream(target, { flags: 'wx', flush: true })
  const done = pipeline(archive, output)
  done.catch(() => undefined) // awaited below; marked handled so an early archiver error is not "unhandled"
  const feed = new ArchiveFeed(
    new PreparedZip(archive, tuning.writeBatchBytes),
    output,
    tuning.maxQueuedEntries,
  )
  const date = new Date(meta.createdAt)
  const pool = new PackPool({ ...tuning, workers: tuning.packWorkers })
  const manifestText = new ManifestStream(meta, tuning.level)
  try {
    const entries = await appendNotes(feed, pool, await notes, date, tuning, manifestText)
    await feed.append(await manifestText.finish(), MANIFEST_NAME, date)
    await Promise.all([archive.finalize(), done])
    // The manifest's objects are made only now, once the archive's own buffers are done with.
    return { manifest: buildManifest(meta, entries.list()), bytes: archive.pointer() }
  } catch (error) {
    manifestText.abort()
    feed.abort(error)
    await done.catch(() => undefined)
    // The pipeline can settle while the file is still being opened; the caller removes it only once it is closed.
    if (!output.closed) await once(output, 'close')
    throw error
  } finally {
    await pool.close()
  }
}

async function appendNotes(
  feed: ArchiveFeed,
  pool: PackPool,
  notes: readonly NoteFile[],
  date: Date,
  tuning: ZipTuning,
  manifest: ManifestStream,
): Promise<ManifestEntries> {
  // Only digests are kept, never contents: memory stays at the batches in flight, not the tree.
  const entries = new ManifestEntries(manifest, notes.length)
  try {
    for await (const batch of pool.pack(notes)) {
      await appendBatch(batch, feed, entries, date, tuning)
      // Once archiver has written this batch's entries (their bytes copied into its output), the pack thread
      // can reuse the batch's memory.
      feed.afterWritten(() => pool.recycle(batch))
    }
    // Streamed digests are final only once archiver has consumed those streams.
    await feed.idle()
  } catch (error) {
    entries.destroyStreams()
    throw error
  }
  entries.finish()
  return entries
}

async function appendBatch(
  batch: readonly PackedNote[],
  feed: ArchiveFeed,
  entries: ManifestEntries,
  date: Date,
  tuning: ZipTuning,
): Promise<void> {
  for (const packed of batch) {
    const { path } = packed.note
    if (packed.kind === 'packed') {
      entries.add({ path, ...packed.digest })
      if (!feed.tryAppend(packed.entry, path, date)) await feed.append(packed.entry, path, date)
      continue
    }
    const source = await openNoteSource(packed.note, Buffer.allocUnsafe(tuning.wholeReadBytes))
    if (!source) continue // vanished since the worker looked
    if (source.kind === 'whole') {
      entries.add({ path, ...source.digest }) // shrank since the worker looked
      await feed.append(prepareEntry(source.data, tuning.level), path, date)
    } else {
      entries.addStreamed(source)
      feed.watch(source.stream)
      await feed.append(source.stream, path, date)
    }
  }
}

/** Appends entries one at a time with backpressure: waits while archiver's queue or the disk is behind. */
class ArchiveFeed {
  readonly #zip: PreparedZip
  readonly #archive: ZipArchive
  readonly #output: WriteStream
  readonly #maxQueued: number
  #appended = 0
  #processed = 0
  #failure: unknown = undefined
  #failed = false
  #wake: (() => void) | undefined
  /** Run once archiver has written `entries` entries, in order. */
  readonly #whenWritten: { entries: number; run: () => void }[] = []

  constructor(zip: PreparedZip, output: WriteStream, maxQueued: number) {
    const archive = zip.archive
    this.#zip = zip
    this.#archive = archive
    this.#output = output
    this.#maxQueued = Math.max(1, maxQueued)
    archive.on('entry', () => {
      this.#processed++
      while ((this.#whenWritten[0]?.entries ?? Infinity) <= this.#processed) this.#whenWritten.shift()?.run()
      this.#notify()
    })
    // archiver only warns about stat failures of paths it globbed; we never glob, so a warning is a bug.
    archive.on('warning', (error) => this.abort(error))
    archive.on('error', (error) => this.abort(error))
    output.on('drain', () => this.#notify())
    output.on('error', (error) => this.abort(error))
  }

  /**
   * Appends now and returns true when neither archiver's queue nor the disk is behind; false (appending
   * nothing) otherwise. Thousands of small notes mostly go this way, without a promise each.
   */
  tryAppend(source: PreparedEntry | Readable, name: string, date: Date): boolean {
    if (this.#failed) throw this.#failure
    if (!this.#isReady()) return false
    this.#appendNow(source, name, date)
    return true
  }

  /** Appends once archiver's queue and the disk have caught up. */
  async append(source: PreparedEntry | Readable, name: string, date: Date): Promise<void> {
    await this.#waitUntil(() => this.#isReady())
    this.#appendNow(source, name, date)
  }

  #isReady(): boolean {
    return this.#appended - this.#processed < this.#maxQueued && !this.#output.writableNeedDrain
  }

  /** A prepared entry goes in as compressed; a stream is deflated by archiver itself. */
  #appendNow(source: PreparedEntry | Readable, name: string, date: Date): void {
    if ('body' in source) this.#zip.appendPrepared(source, name, date)
    else this.#archive.append(source, { name, date })
    this.#appended++
  }

  /** Runs `run` once every entry appended so far has been written into the archive stream (now, if it has). */
  afterWritten(run: () => void): void {
    if (this.#processed >= this.#appended) run()
    else this.#whenWritten.push({ entries: this.#appended, run })
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
