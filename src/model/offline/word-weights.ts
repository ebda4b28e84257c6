// How much a word tells: inverse document frequency over the window's messages. A word every message uses
// ("today", "work") weighs little; a name or a rare noun ("Marley", "internship") weighs a lot.
import { hasSpacelessScript, SPACELESS_RUNS, spacelessBigrams } from './script.js'
import { contentWordOf, foldCase, WORD_BREAK } from './text.js'

/** A light suffix stripper so "dancing", "dances" and "danced" count as one word. */
export function stemOf(word: string): string {
  if (/^\d/.test(word) || word.length <= 3) return word
  let stem = word
  if (stem.endsWith('ies') && stem.length > 4) stem = `${stem.slice(0, -3)}y`
  else if (stem.endsWith('s') && !/(?:ss|us|is)$/.test(stem)) stem = stem.slice(0, -1)
  if (stem.endsWith('ing') && stem.length > 5) stem = stem.slice(0, -3)
  else if (stem.endsWith('ed') && stem.length > 4) stem = stem.slice(0, -2)
  return stem.replace(/([bcdfgkmnprt])\1$/, '$1').replace(/e$/, '')
}

// Each word's term, worked out once: a year's summaries see the same few thousand words millions of times.
const termOfPiece = new Map<string, string | null>()
const TERM_CACHE_MAX = 200_000

/**
 * The distinct stemmed content words of a text, in the order they first appear. Where a script runs without
 * spaces, its character pairs stand in for words (script.ts): a whole Chinese sentence is not one word.
 */
export function termsOf(text: string): Set<string> {
  const terms = new Set<string>()
  for (const piece of foldCase(text).split(WORD_BREAK)) {
    if (hasSpacelessScript(piece)) {
      for (const pair of spacelessBigrams(piece)) terms.add(pair)
      for (const part of piece.replace(SPACELESS_RUNS, ' ').split(' ')) {
        const word = contentWordOf(part)
        if (word !== null) terms.add(stemOf(word))
      }
      continue
    }
    let term = termOfPiece.get(piece)
    if (term === undefined) {
      const word = contentWordOf(piece)
      term = word === null ? null : stemOf(word)
      if (termOfPiece.size >= TERM_CACHE_MAX) termOfPiece.clear()
      termOfPiece.set(piece, term)
    }
    if (term !== null) terms.add(term)
  }
  return terms
}

/** What a WordWeights has counted, as plain data another thread can be sent. */
export interface WordCounts {
  documents: number
  documentFrequency: Map<string, number>
}

export class WordWeights {
  readonly #documentFrequency: Map<string, number>
  #documents: number

  constructor(counts: WordCounts = { documents: 0, documentFrequency: new Map() }) {
    this.#documents = counts.documents
    this.#documentFrequency = new Map(counts.documentFrequency)
  }

  /** The counts so far (a copy), to rebuild the same weights elsewhere. */
  counts(): WordCounts {
    return { documents: this.#documents, documentFrequency: new Map(this.#documentFrequency) }
  }

  /** Counts one document (a message) towards the frequencies. */
  add(terms: ReadonlySet<string>): void {
    this.#documents += 1
    for (const term of terms) this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1)
  }

  /** Smoothed IDF, never below a small floor so common words still count a little. */
  weight(term: string): number {
    const frequency = this.#documentFrequency.get(term) ?? 0
    return Math.max(0.1, Math.log((this.#documents + 1) / (frequency + 0.5)))
  }
}
