// Compresses one note ahead of the archive: raw deflate plus the zip's CRC-32, or stored when deflate can't win.
import { crc32, deflateRawSync } from 'node:zlib'

/** Zip compression methods (APPNOTE 4.4.5): what the local and central headers record. */
export const ZIP_STORED = 0
export const ZIP_DEFLATED = 8

/** An entry's body exactly as the zip holds it, with what its headers must say about the original bytes. */
export interface PreparedEntry {
  method: typeof ZIP_STORED | typeof ZIP_DEFLATED
  /** The body written after the local header: raw deflate, or the original bytes when stored. */
  body: Buffer
  /** CRC-32 and length of the original (uncompressed) bytes. */
  crc32: number
  size: number
}

/** Deflates `data` like `zip` does: level `level`, and stored instead when deflate would not shrink it. */
export function prepareEntry(data: Buffer, level: number): PreparedEntry {
  const checksum = crc32(data)
  const deflated = data.length > 0 ? deflateRawSync(data, { level }) : undefined
  if (deflated && deflated.length < data.length) {
    return { method: ZIP_DEFLATED, body: deflated, crc32: checksum, size: data.length }
  }
  return { method: ZIP_STORED, body: data, crc32: checksum, size: data.length }
}
