// Turns arbitrary user text into FTS5 MATCH strings made only of quoted terms, and into substring patterns.

/** The safe forms of one user query. */
export interface QueryPlan {
  /** Quoted FTS5 terms such as `"postgres"`, `"new york"` (a phrase) or `"postg"*` (a prefix). */
  terms: string[]
  /** The raw pieces (whitespace-split, quoted phrases kept whole) for the substring fallback. */
  pieces: string[]
}

const MAX_PIECES = 32
const WORD = /[\p{L}\p{N}]/u

/**
 * Splits `text` into pieces: "double-quoted phrases" stay whole, the rest splits on whitespace. Every FTS5
 * operator (AND, OR, NOT, NEAR, `-`, `:`, `^`, parentheses, column filters) ends up inside a quoted string,
 * where FTS5 treats it as plain text, so no user text can become a syntax error. A trailing `*` on a word
 * keeps its meaning as a prefix search. Pieces with no letter or digit give no term (only substrings).
 */
export function planQuery(text: string): QueryPlan {
  const cleaned = text.normalize('NFC').replace(/\p{Cc}/gu, ' ')
  const pieces: string[] = []
  const terms: string[] = []
  const pattern = /"([^"]*)"|(\S+)/g
  for (const match of cleaned.matchAll(pattern)) {
    const piece = (match[1] ?? match[2] ?? '').trim()
    if (piece === '' || pieces.length === MAX_PIECES) continue
    pieces.push(piece)
    const isPrefix = match[2] !== undefined && piece.endsWith('*')
    const word = isPrefix ? piece.replace(/\*+$/, '') : piece
    if (WORD.test(word)) terms.push(`${quote(word)}${isPrefix ? '*' : ''}`)
  }
  return { terms, pieces }
}

/** Every term must match (FTS5's implicit AND). */
export function matchAll(plan: QueryPlan): string {
  return plan.terms.join(' ')
}

/** Any term may match: the fallback when the AND query finds nothing. */
export function matchAny(plan: QueryPlan): string {
  return plan.terms.join(' OR ')
}

/**
 * LIKE patterns, one per piece, for the trigram-indexed substring fallback. SQLite only uses the trigram
 * index for LIKE without ESCAPE, so the wildcards `%` and `_` in user text become `_` (any one character):
 * the patterns match a superset, and the caller keeps only chunks that contain every piece verbatim.
 */
export function likePatterns(plan: QueryPlan): string[] {
  return plan.pieces.map((piece) => `%${piece.replace(/[%_]/g, '_')}%`)
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`
}
