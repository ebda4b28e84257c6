// Splits a note into line-aware chunks, so a hit can name the line it came from and bm25 ranks sections.
import type { SecretKind } from '../secrets/types.js'
import { withholdSecrets } from '../secrets/withhold.js'

/** A run of whole lines from one file; `startLine` is 1-based. */
export interface Chunk {
  startLine: number
  body: string
}

/** A heading starts a new chunk once the current one has this many lines (tiny sections stay together). */
const HEADING_BREAK_MIN_LINES = 8
const MAX_LINES = 60
const MAX_CHARS = 4000

const HEADING = /^#{1,6}\s/

/**
 * Chunks of at most ~60 lines / ~4 KB, broken preferably at markdown headings; empty text → no chunks. A secret in
 * a note (one written by hand, or before dreams withheld them) is withheld from its chunk: the index, its snippets
 * and every search served from it never hold the value, unless it is of a kind the user keeps (`keepKinds`).
 */
export function chunkText(text: string, keepKinds: readonly SecretKind[] = []): Chunk[] {
  const lines = text.split('\n')
  const chunks: Chunk[] = []
  let current: string[] = []
  let startLine = 1
  let chars = 0
  const flush = (nextStart: number): void => {
    const body = current.join('\n')
    if (body.trim() !== '') chunks.push({ startLine, body: withholdSecrets(body, { keepKinds }).text })
    current = []
    chars = 0
    startLine = nextStart
  }
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const isHeadingBreak = HEADING.test(line) && current.length >= HEADING_BREAK_MIN_LINES
    if (current.length > 0 && (isHeadingBreak || current.length >= MAX_LINES || chars >= MAX_CHARS)) {
      flush(index + 1)
    }
    current.push(line)
    chars += line.length + 1
  })
  flush(lines.length + 1)
  return chunks
}
