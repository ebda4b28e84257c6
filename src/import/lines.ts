// Splits a byte stream into numbered text lines without holding the file: CRLF, BOMs and bad UTF-8 are tolerated.

/** One line of a text source, without its line break. */
export interface SourceLine {
  /** 1-based. */
  number: number
  text: string
  /** The line was longer than the limit and was cut there (its record is unusable). */
  isTruncated: boolean
}

export interface ReadLinesOptions {
  /** Lines longer than this are cut and flagged, so one runaway line cannot exhaust memory. @default 16 MiB */
  maxLineBytes?: number
  /** Called with the byte count of each chunk consumed. */
  onBytes?: (bytes: number) => void
}

const NEWLINE = 0x0a
const CR = 0x0d
// Invalid bytes become U+FFFD instead of failing the import; a BOM at the start of a line is dropped.
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false })

/**
 * Yields lines in batches (one batch per input chunk): a generator step per line would cost more than
 * the parsing itself on a large export.
 */
export async function* readLineBatches(
  source: AsyncIterable<Uint8Array>,
  options: ReadLinesOptions = {},
): AsyncGenerator<SourceLine[]> {
  const maxLineBytes = options.maxLineBytes ?? 16 * 1024 * 1024
  let pending: Uint8Array[] = []
  let pendingBytes = 0
  let isTruncated = false
  let number = 0

  const finish = (tail: Uint8Array): SourceLine => {
    const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail])
    pending = []
    pendingBytes = 0
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length
    const line = { number: ++number, text: decoder.decode(bytes.subarray(0, end)), isTruncated }
    isTruncated = false
    return line
  }
  const keep = (part: Uint8Array): void => {
    const room = maxLineBytes - pendingBytes
    if (part.length > room) isTruncated = true
    if (room <= 0) return
    const kept = part.length > room ? part.subarray(0, room) : part
    pending.push(kept)
    pendingBytes += kept.length
  }

  for await (const chunk of source) {
    const batch: SourceLine[] = []
    let start = 0
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      const part = chunk.subarray(start, at)
      if (pending.length === 0 && part.length <= maxLineBytes) batch.push(finish(part))
      else {
        keep(part)
        batch.push(finish(new Uint8Array(0)))
      }
      start = at + 1
    }
    if (start < chunk.length) keep(chunk.subarray(start))
    if (batch.length > 0) yield batch
    // After the consumer handled the batch, so progress counts what was really processed.
    options.onBytes?.(chunk.length)
  }
  if (pending.length > 0) yield [finish(new Uint8Array(0))]
}
