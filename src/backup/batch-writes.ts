// Joins a stream's small chunks into larger ones before they reach the disk.
import { Transform } from 'node:stream'

/**
 * archiver emits every zip header field as its own tiny chunk (a dozen per entry); joining them into
 * `bytes`-sized writes cut the backup's time by about 15% in bench/backup.bench.ts. Memory stays bounded
 * by `bytes` plus the stream's own high-water mark.
 */
export function batchWrites(bytes: number): Transform {
  let parts: Buffer[] = []
  let size = 0
  const take = (): Buffer => {
    const joined = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size)
    parts = []
    size = 0
    return joined
  }
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      parts.push(chunk)
      size += chunk.length
      if (size < bytes) callback()
      else callback(null, take())
    },
    flush(callback) {
      if (size > 0) callback(null, take())
      else callback()
    },
  })
}
