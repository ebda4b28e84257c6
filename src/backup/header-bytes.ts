// A zip entry's local and central headers encoded in place, the same bytes archiver's engine writes field by field.
import type { ZipEngineEntry } from './central-record.js'

const LOCAL_HEADER_SIGNATURE = 0x04034b50
const CENTRAL_HEADER_SIGNATURE = 0x02014b50
const LOCAL_HEADER_BYTES = 30
const CENTRAL_HEADER_BYTES = 46
/** What compress-commons records as "version made by" beside the platform. */
const VERSION_MADE_BY = 45
const ZIP64_LIMIT = 0xffffffff
const DATA_DESCRIPTOR_FLAG = 1 << 3
/** Longer names go to archiver's writers, so an encoded header always fits a write chunk. */
const MAX_PLAIN_NAME = 4096
// Names outside ASCII, data descriptors, extras, comments and zip64 are left to archiver's own writers.
const ASCII = /^[\x00-\x7f]*$/

/** Bytes to encode into, with a DataView over them: its setters are V8 builtins, fast before any JIT. */
export interface HeaderTarget {
  bytes: Buffer
  view: DataView
}

export function headerTarget(bytes: Buffer): HeaderTarget {
  return { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.length) }
}

/** What both headers of a plain entry say, read from archiver's entry once. */
export interface PlainHeader {
  name: string
  versionNeeded: number
  flags: number
  method: number
  timeDos: number
  crc32: number
  compressedSize: number
  size: number
  versionMadeBy: number
  internalAttributes: number
  externalAttributes: number
}

/**
 * The entry's header fields when both its headers are plain (ASCII name, no data descriptor, extra field, comment or
 * zip64), else undefined. compress-commons writes each header field as its own 2- or 4-byte Buffer (about 30 per
 * entry for the two headers, the largest share of a 20,000-note backup's allocations on the main thread); Buffer's
 * own writeUInt32LE is JavaScript, ~5 µs a header in a short run's interpreter, where DataView's setters take ~0.7.
 */
export function plainHeaderOf(entry: ZipEngineEntry, flags: number): PlainHeader | undefined {
  const name = entry.getName()
  if ((flags & DATA_DESCRIPTOR_FLAG) !== 0 || entry.isZip64() || name.length > MAX_PLAIN_NAME)
    return undefined
  if (!ASCII.test(name) || entry.getCentralDirectoryExtra().length !== 0 || entry.getComment() !== '')
    return undefined
  return {
    name,
    versionNeeded: entry.getVersionNeededToExtract(),
    flags,
    method: entry.getMethod(),
    timeDos: entry.getTimeDos() >>> 0,
    crc32: entry.getCrc() >>> 0,
    compressedSize: entry.getCompressedSize(),
    size: entry.getSize(),
    versionMadeBy: ((entry.getPlatform() << 8) | VERSION_MADE_BY) & 0xffff,
    internalAttributes: entry.getInternalAttributes(),
    externalAttributes: entry.getExternalAttributes() >>> 0,
  }
}

export const localHeaderLength = (header: PlainHeader): number => LOCAL_HEADER_BYTES + header.name.length
export const centralHeaderLength = (header: PlainHeader): number => CENTRAL_HEADER_BYTES + header.name.length

/** Writes the local header at `at`: localHeaderLength(header) bytes. */
export function encodeLocalHeader(header: PlainHeader, target: HeaderTarget, at: number): void {
  const { view } = target
  view.setUint32(at, LOCAL_HEADER_SIGNATURE, true)
  view.setUint16(at + 4, header.versionNeeded, true)
  view.setUint16(at + 6, header.flags, true)
  view.setUint16(at + 8, header.method, true)
  view.setUint32(at + 10, header.timeDos, true)
  view.setUint32(at + 14, header.crc32, true)
  view.setUint32(at + 18, header.compressedSize, true)
  view.setUint32(at + 22, header.size, true)
  view.setUint16(at + 26, header.name.length, true)
  view.setUint16(at + 28, 0, true) // no extra field
  target.bytes.write(header.name, at + LOCAL_HEADER_BYTES, 'latin1')
}

/** Writes the central header of the entry written at archive offset `fileOffset` (at most ZIP64_LIMIT) at `at`. */
export function encodeCentralHeader(
  header: PlainHeader,
  fileOffset: number,
  target: HeaderTarget,
  at: number,
): void {
  const { view } = target
  view.setUint32(at, CENTRAL_HEADER_SIGNATURE, true)
  view.setUint16(at + 4, header.versionMadeBy, true)
  view.setUint16(at + 6, header.versionNeeded, true)
  view.setUint16(at + 8, header.flags, true)
  view.setUint16(at + 10, header.method, true)
  view.setUint32(at + 12, header.timeDos, true)
  view.setUint32(at + 16, header.crc32, true)
  view.setUint32(at + 20, header.compressedSize, true)
  view.setUint32(at + 24, header.size, true)
  view.setUint16(at + 28, header.name.length, true)
  view.setUint32(at + 30, 0, true) // extra and comment lengths
  view.setUint16(at + 34, 0, true) // disk number
  view.setUint16(at + 36, header.internalAttributes, true)
  view.setUint32(at + 38, header.externalAttributes, true)
  view.setUint32(at + 42, fileOffset, true)
  target.bytes.write(header.name, at + CENTRAL_HEADER_BYTES, 'latin1')
}

/** Whether an entry at `fileOffset` can have a plain central header (no zip64 offset). */
export const fitsPlainCentral = (fileOffset: number): boolean => fileOffset <= ZIP64_LIMIT

/** The local header of `entry` as a new buffer; undefined unless plain. */
export function localHeaderBytes(entry: ZipEngineEntry, flags: number): Buffer | undefined {
  const header = plainHeaderOf(entry, flags)
  if (!header) return undefined
  const target = headerTarget(Buffer.allocUnsafe(localHeaderLength(header)))
  encodeLocalHeader(header, target, 0)
  return target.bytes
}

/** The central directory header of `entry`, written at offset `entry._offsets.file`; undefined unless plain. */
export function centralHeaderBytes(entry: ZipEngineEntry, flags: number): Buffer | undefined {
  const header = plainHeaderOf(entry, flags)
  const fileOffset = entry._offsets.file
  if (!header || !fitsPlainCentral(fileOffset)) return undefined
  const target = headerTarget(Buffer.allocUnsafe(centralHeaderLength(header)))
  encodeCentralHeader(header, fileOffset, target, 0)
  return target.bytes
}
