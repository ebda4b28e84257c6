// Lets archiver's zip engine take entries that were compressed beforehand, instead of deflating each itself.
import type { ZipArchive } from 'archiver'
import { CentralHeaderChunk, CentralHeaderChunks } from './central-chunks.js'
import { CentralRecord, type ZipEngineEntry } from './central-record.js'
import {
  centralHeaderLength,
  encodeCentralHeader,
  encodeLocalHeader,
  fitsPlainCentral,
  headerTarget,
  localHeaderLength,
  plainHeaderOf,
  type HeaderTarget,
  type PlainHeader,
} from './header-bytes.js'
import { ZIP_DEFLATED, type PreparedEntry } from './prepared-entry.js'

/**
 * The parts of compress-commons' ZipArchiveOutputStream (under archiver's zip plugin) this relies on:
 * `_appendBuffer` is where a buffer entry gets its CRC, sizes and (per entry) a new deflate stream;
 * the header writers and `_afterAppend` are what it calls for a stored entry.
 */
interface ZipEngine {
  _appendBuffer(entry: ZipArchiveEntry, source: Buffer, callback: EntryCallback): void
  _writeLocalFileHeader(entry: ZipArchiveEntry): void
  _writeCentralFileHeader(entry: ZipEngineEntry | CentralHeaderChunk): void
  _afterAppend(entry: ZipEngineEntry | CentralHeaderChunk): void
  write(chunk: Buffer | string, callback?: () => void): boolean
  end(...args: unknown[]): unknown
  /** Bytes written so far; the header writers read it between writes to record entry offsets. */
  offset: number
}
interface ZipArchiveEntry extends ZipEngineEntry {
  _offsets: { file: number; data: number; contents: number }
  setMethod(method: number): void
  setCrc(crc: number): void
  setSize(size: number): void
  setCompressedSize(size: number): void
  getGeneralPurposeBit(): ReturnType<ZipEngineEntry['getGeneralPurposeBit']> & {
    useDataDescriptor(use: boolean): void
  }
}
type EntryCallback = (error: Error | null, entry?: ZipArchiveEntry) => void

// Deflate needs PKZIP 2.0 to extract; no data descriptor, as CRC and sizes are known before the header.
const VERSION_DEFLATE = 20

/**
 * An archiver zip whose `appendPrepared` writes a PreparedEntry's body as is, with its method, CRC-32
 * and sizes in the local header. archiver still queues the entry, writes every header, the central
 * directory and the end record; only its per-entry zlib stream (and JS CRC) is skipped, and what the
 * engine keeps for the central directory is the header's bytes in a CentralHeaderChunk (or, where they
 * can't be encoded here, a CentralRecord) instead of the whole entry object. Plain headers
 * (ASCII name, no extra field, comment, data descriptor or zip64) are written in one buffer each, the same
 * bytes as archiver's field-by-field writers. Other entries (`append` of a stream, say) go through archiver
 * unchanged.
 */
export class PreparedZip {
  readonly archive: ZipArchive
  readonly #prepared = new WeakMap<Buffer, { entry: PreparedEntry; name: string }>()

  constructor(archive: ZipArchive, joinWritesBytes: number) {
    this.archive = archive
    const engine = zipEngineOf(archive)
    const writes = joinWrites(engine, joinWritesBytes)
    const central = new CentralHeaderChunks()
    const afterAppend = engine._afterAppend.bind(engine)
    engine._afterAppend = (entry) => {
      // An entry kept as an object (archiver's own, or a CentralRecord) ends the run of encoded headers.
      if (!(entry instanceof CentralHeaderChunk)) central.endRun()
      afterAppend(entry)
    }
    const writeCentralHeader = engine._writeCentralFileHeader.bind(engine)
    engine._writeCentralFileHeader = (entry) => {
      if (!(entry instanceof CentralHeaderChunk)) return writeCentralHeader(entry)
      const run = entry.takeBytes()
      if (run) engine.write(run)
    }
    const appendBuffer = engine._appendBuffer.bind(engine)
    engine._appendBuffer = (entry, source, callback) => {
      const queued = this.#prepared.get(source)
      if (!queued) return appendBuffer(entry, source, callback)
      this.#prepared.delete(source)
      const prepared = queued.entry
      entry.setMethod(prepared.method)
      entry.getGeneralPurposeBit().useDataDescriptor(false)
      if (prepared.method === ZIP_DEFLATED) entry.setVersionNeededToExtract(VERSION_DEFLATE)
      entry.setCrc(prepared.crc32)
      entry.setSize(prepared.size)
      entry.setCompressedSize(prepared.body.length)
      const flags = entry.getGeneralPurposeBit().encode().readUInt16LE(0)
      const header = plainHeaderOf(entry, flags)
      writeLocalHeader(engine, writes, entry, header)
      engine.write(prepared.body)
      // The engine keeps what it is given here until the central directory: the header's bytes where
      // header-bytes can encode it (offsets are final now), else a compact record, never the entry itself.
      const fileOffset = entry._offsets.file
      engine._afterAppend(
        header && fitsPlainCentral(fileOffset)
          ? central.addEncoded(centralHeaderLength(header), (target, at) =>
              encodeCentralHeader(header, fileOffset, target, at),
            )
          : new CentralRecord(entry, queued.name),
      )
      callback(null, entry)
    }
  }

  appendPrepared(prepared: PreparedEntry, name: string, date: Date): void {
    // The body's identity carries the metadata through archiver's queue to the engine.
    if (this.#prepared.has(prepared.body)) throw new Error(`internal: ${name}'s body is already queued`)
    this.#prepared.set(prepared.body, { entry: prepared, name })
    this.archive.append(prepared.body, { name, date })
  }
}

/** The local header encoded straight into the joined writes where it is plain, else archiver's own field by field. */
function writeLocalHeader(
  engine: ZipEngine,
  writes: JoinedWrites,
  entry: ZipArchiveEntry,
  header: PlainHeader | undefined,
): void {
  if (!header) return engine._writeLocalFileHeader(entry)
  // The offsets compress-commons' writer records as it goes: header start, after the time field, body start.
  entry._offsets.file = engine.offset
  entry._offsets.data = engine.offset + 14
  const length = localHeaderLength(header)
  if (length <= writes.chunkBytes) {
    const at = writes.reserve(length) // may start a new chunk: target is read after it
    encodeLocalHeader(header, writes.target, at)
  } else {
    const own = headerTarget(Buffer.allocUnsafe(length))
    encodeLocalHeader(header, own, 0)
    engine.write(own.bytes)
  }
  entry._offsets.contents = engine.offset
}

/** Room in the chunk being joined, for a header encoded in place. */
interface JoinedWrites {
  readonly chunkBytes: number
  /** The chunk being joined; `reserve` may replace it, so read it after. */
  readonly target: HeaderTarget
  /** Counts `length` more bytes (at most chunkBytes) as written and returns where they go in `target.bytes`. */
  reserve(length: number): number
}

/**
 * The engine writes every header field as its own few-byte Buffer (about 40 per entry with the central
 * directory); each then crosses two streams and, while queued there, survives garbage collections, which
 * made memory grow with the tree. Copied here into `bytes`-sized chunks before they enter any stream (and plain
 * local headers are encoded straight into them); the copy also means no chunk written here is referenced once
 * `write` returns, so the pack pool can reuse the memory a prepared body came in as soon as its entry is written.
 * `offset` stays exact at every write, as the header writers read it.
 */
function joinWrites(engine: ZipEngine, bytes: number): JoinedWrites {
  const write = engine.write.bind(engine)
  const end = engine.end.bind(engine)
  let staged = headerTarget(Buffer.allocUnsafeSlow(bytes))
  let size = 0
  const flush = (): boolean => {
    if (size === 0) return true
    const full = staged.bytes.subarray(0, size)
    staged = headerTarget(Buffer.allocUnsafeSlow(bytes)) // the stream keeps `full` until it is written out
    size = 0
    engine.offset -= full.length // write() counts these bytes again
    return write(full)
  }
  engine.write = (chunk, callback) => {
    if (callback) {
      flush()
      return write(chunk, callback)
    }
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    engine.offset += buffer.length
    // true while joining: a streamed entry piped in here sees the stream's real backpressure at each flush.
    let ready = true
    for (let at = 0; at < buffer.length;) {
      const copied = buffer.copy(staged.bytes, size, at)
      size += copied
      at += copied
      if (size === bytes) ready = flush()
    }
    return ready
  }
  engine.end = (...args) => {
    flush()
    return end(...args)
  }
  return {
    chunkBytes: bytes,
    get target() {
      return staged
    },
    reserve(length) {
      if (bytes - size < length) flush()
      engine.offset += length
      size += length
      return size - length
    },
  }
}

/** archiver exposes no hook for pre-compressed data: find its engine, and fail loudly if it has changed. */
function zipEngineOf(archive: ZipArchive): ZipEngine {
  const engine = (archive as unknown as { _module?: { engine?: Partial<ZipEngine> } })._module?.engine
  const needed = [
    '_appendBuffer',
    '_writeLocalFileHeader',
    '_writeCentralFileHeader',
    '_afterAppend',
    'write',
    'end',
  ] as const
  if (
    !engine ||
    needed.some((name) => typeof engine[name] !== 'function') ||
    typeof engine.offset !== 'number'
  ) {
    throw new Error('archiver changed: its zip engine no longer has _appendBuffer/_writeLocalFileHeader')
  }
  return engine as ZipEngine
}
