// Cuts what matches out of a text piece by piece (sentences, or list items), keeping everything else as it was.
import type { ForgetMatcher } from './forget-match.js'

/** How a text falls into pieces: sentences of prose, or the comma-separated items of a topic list. */
export type PieceKind = 'sentence' | 'item'

/**
 * Sentence ends (`. `, `! `, `? `, `… `) or list separators (`, `, `; `), kept with the piece before them, so
 * joining the pieces gives the text back exactly.
 */
export function splitPieces(text: string, kind: PieceKind): string[] {
  const boundary = kind === 'sentence' ? /(?<=[.!?…])\s+(?=\S)/g : /(?<=[,;])\s+(?=\S)/g
  const pieces: string[] = []
  let start = 0
  for (const match of text.matchAll(boundary)) {
    const end = (match.index ?? 0) + match[0].length
    pieces.push(text.slice(start, end))
    start = end
  }
  pieces.push(text.slice(start))
  return pieces.filter((piece) => piece !== '')
}

export interface Redaction {
  /** The text with every matching piece left out (null when nothing but matching pieces was there). */
  text: string | null
  /** The pieces left out, trimmed. */
  removed: string[]
}

/**
 * `text` without its pieces that `matcher` matches; a list marker in front (`- `, `1. `) stays with the line, and a
 * trailing separator left dangling is dropped.
 */
export function redactPieces(text: string, matcher: ForgetMatcher, kind: PieceKind): Redaction {
  if (!matcher.matches(text)) return { text, removed: [] }
  const marker = LIST_MARKER.exec(text)?.[0] ?? ''
  const kept: string[] = []
  const removed: string[] = []
  for (const piece of splitPieces(text.slice(marker.length), kind)) {
    if (matcher.matches(piece)) removed.push(piece.trim())
    else kept.push(piece)
  }
  if (kept.length === 0 || kept.join('').trim() === '') return { text: null, removed }
  let joined = kept.join('')
  if (kind === 'item') joined = joined.replace(/[,;]\s*$/, '')
  return { text: `${marker}${joined.trimEnd()}`, removed }
}

const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/
