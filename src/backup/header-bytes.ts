// A zip entry's local and central headers as one buffer each, the same bytes archiver's engine writes field by field.
import type { ZipEngineEntry } from './central-record.js'

const LOCAL_HEADER_SIGNATURE = 0x04034b50
const CENTRAL_HEADER_SIGNATURE = 0x02014b50
const LOCAL_HEADER_BYTES = 30
const CENTRAL_HEADER_BYTES = 46
/** What compress-commons records as "version made by" beside the platform. */
const VERSION_MADE_BY = 45
const ZIP64_LIMIT = 0xffffffff
const DATA_DESCRIPTOR_FLAG = 1 << 3
// Names outside ASCII, data descriptors, extras, comments and zip64 are left to archiver's own writers.
const ASCII = /^[\x00-\x7f]*$/

/**
 * compress-commons writes each header field as its own 2- or 4-byte Buffer (about 30 per entry for the two
 * headers); at 20,000 notes that was the largest share of a backup's allocations on the main thread, and what
 * made V8 grow its young generation. Undefined when the entry needs anything but the plain case.
 */
export function localHeaderBytes(entry: ZipEngineEntry, flags: number): Buffer | undefined {
  const name = entry.getName()
  if (!isPlain(entry, name, flags) || entry.getCentralDirectoryExtra().length !== 0) return undefined
  const header = Buffer.allocUnsafe(LOCAL_HEADER_BYTES + name.length)
  header.writeUInt32LE(LOCAL_HEADER_SIGNATURE, 0)
  header.writeUInt16LE(entry.getVersionNeededToExtract(), 4)
  header.writeUInt16LE(flags, 6)
  header.writeUInt16LE(entry.getMethod(), 8)
  header.writeUInt32LE(entry.getTimeDos() >>> 0, 10)
  header.writeUInt32LE(entry.getCrc() >>> 0, 14)
  header.writeUInt32LE(entry.getCompressedSize(), 18)
  header.writeUInt32LE(entry.getSize(), 22)
  header.writeUInt16LE(name.length, 26)
  header.writeUInt16LE(0, 28) // no extra field
  header.write(name, LOCAL_HEADER_BYTES, 'latin1')
  return header
}

/** The central directory header of `entry`, written at offset `fileOffset`; undefined as for the local one. */
export function centralHeaderBytes(entry: ZipEngineEntry, flags: number): Buffer | undefined {
  const name = entry.getName()
  const fileOffset = entry._offsets.file
  if (!isPlain(entry, name, flags) || fileOffset > ZIP64_LIMIT) return undefined
  if (entry.getCentralDirectoryExtra().length !== 0 || entry.getComment() !== '') return undefined
  const header = Buffer.allocUnsafe(CENTRAL_HEADER_BYTES + name.length)
  header.writeUInt32LE(CENTRAL_HEADER_SIGNATURE, 0)
  header.writeUInt16LE(((entry.getPlatform() << 8) | VERSION_MADE_BY) & 0xffff, 4)
  header.writeUInt16LE(entry.getVersionNeededToExtract(), 6)
  header.writeUInt16LE(flags, 8)
  header.writeUInt16LE(entry.getMethod(), 10)
  header.writeUInt32LE(entry.getTimeDos() >>> 0, 12)
  header.writeUInt32LE(entry.getCrc() >>> 0, 16)
  header.writeUInt32LE(entry.getCompressedSize(), 20)
  header.writeUInt32LE(entry.getSize(), 24)
  header.writeUInt16LE(name.length, 28)
  header.writeUInt32LE(0, 30) // extra and comment lengths
  header.writeUInt32LE(0, 34) // disk number, internal attributes below
  header.writeUInt16LE(entry.getInternalAttributes(), 36)
  header.writeUInt32LE(entry.getExternalAttributes() >>> 0, 38)
  header.writeUInt32LE(fileOffset, 42)
  header.write(name, CENTRAL_HEADER_BYTES, 'latin1')
  return header
}

function isPlain(entry: ZipEngineEntry, name: string, flags: number): boolean {
  return (flags & DATA_DESCRIPTOR_FLAG) === 0 && !entry.isZip64() && ASCII.test(name)
}
