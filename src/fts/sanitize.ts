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
/** The trigram tokenizer can only match substrings of at least three characters. */
const TRIGRAM_MIN_CHARS = 3

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

/** A MATCH string for the trigram table, or undefined when a piece is too short for trigrams. */
export function matchSubstrings(plan: QueryPlan): string | undefined {
  if (plan.pieces.length === 0) return undefined
  if (plan.pieces.some((piece) => [...piece].length < TRIGRAM_MIN_CHARS)) return undefined
  return plan.pieces.map(quote).join(' ')
}

/** LIKE patterns (escape character `\`), one per piece, for substrings too short for trigrams. */
export function likePatterns(plan: QueryPlan): string[] {
  return plan.pieces.map((piece) => `%${piece.replace(/[\\%_]/g, (char) => `\\${char}`)}%`)
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`
}
