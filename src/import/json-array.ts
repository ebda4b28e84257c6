// Streams the elements of a top-level JSON array (ChatGPT's conversations.json) one at a time, never the whole file.

/** One element of the array: parsed, or the reason it could not be. */
export type ArrayElement = { index: number; value: unknown } | { index: number; error: string }

export interface StreamJsonArrayOptions {
  /** An element larger than this is skipped and reported (protects memory). @default 256 MiB */
  maxElementBytes?: number
  onBytes?: (bytes: number) => void
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c
const BOM = [0xef, 0xbb, 0xbf]
const decoder = new TextDecoder('utf-8', { fatal: false })

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
}

/**
 * Scans bytes, tracking only strings and nesting depth (every structural character is ASCII, so multi-byte
 * UTF-8 never confuses it), and parses each complete element with JSON.parse. Memory is bounded by the
 * largest element. A malformed element is reported by index and the scan goes on at the next one.
 */
export async function* streamJsonArray(
  source: AsyncIterable<Uint8Array>,
  options: StreamJsonArrayOptions = {},
): AsyncGenerator<ArrayElement> {
  const maxElementBytes = options.maxElementBytes ?? 256 * 1024 * 1024
  let depth = 0
  let inString = false
  let isEscaped = false
  let isStarted = false // the opening '[' was seen
  let isDone = false // the closing ']' was seen
  let parts: Uint8Array[] = []
  let partBytes = 0
  let isOversized = false
  let inElement = false
  let index = 0
  let offset = 0 // bytes before the current chunk: a BOM can only sit in the first three

  const complete = (): ArrayElement => {
    const bytes = Buffer.concat(parts)
    const element: ArrayElement = isOversized
      ? { index, error: `element larger than ${maxElementBytes} bytes` }
      : parseElement(index, bytes)
    parts = []
    partBytes = 0
    isOversized = false
    inElement = false
    index++
    return element
  }
  const keep = (part: Uint8Array): void => {
    if (isOversized || part.length === 0) return
    if (partBytes + part.length > maxElementBytes) {
      isOversized = true
      parts = []
      return
    }
    parts.push(part)
    partBytes += part.length
  }

  for await (const chunk of source) {
    const out: ArrayElement[] = []
    let start = -1 // start of the current element within this chunk
    if (inElement) start = 0
    for (let at = 0; at < chunk.length && !isDone; at++) {
      const byte = chunk[at] as number
      if (inString) {
        if (isEscaped) isEscaped = false
        else if (byte === BACKSLASH) isEscaped = true
        else if (byte === QUOTE) inString = false
        continue
      }
      if (!isStarted) {
        if (isSpace(byte) || (offset + at < 3 && BOM.includes(byte))) continue
        if (byte !== OPEN_BRACKET) throw new SyntaxError('expected a JSON array at the top level')
        isStarted = true
        depth = 1
        continue
      }
      if (depth === 1 && !inElement) {
        if (isSpace(byte) || byte === COMMA) continue
        if (byte === CLOSE_BRACKET) {
          isDone = true
          continue
        }
        inElement = true
        start = at
      }
      if (byte === QUOTE) inString = true
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        if (depth === 1) {
          // A scalar element ended by the array's closing bracket.
          keep(chunk.subarray(start, at))
          out.push(complete())
          isDone = true
          continue
        }
        depth--
        if (depth === 1) {
          keep(chunk.subarray(start, at + 1))
          out.push(complete())
        }
      } else if (byte === COMMA && depth === 1) {
        keep(chunk.subarray(start, at))
        out.push(complete())
      }
    }
    if (inElement) keep(chunk.subarray(start))
    offset += chunk.length
    yield* out
    options.onBytes?.(chunk.length)
  }
  if (!isStarted) throw new SyntaxError('empty input: expected a JSON array')
  if (inElement || !isDone) yield { index, error: 'file ends inside the array (truncated?)' }
}

function parseElement(index: number, bytes: Buffer): ArrayElement {
  try {
    return { index, value: JSON.parse(decoder.decode(bytes)) }
  } catch (error) {
    return { index, error: `invalid JSON (${(error as Error).message})` }
  }
}
