// How much a word tells: inverse document frequency over the window's messages. A word every message uses
// ("today", "work") weighs little; a name or a rare noun ("Marley", "internship") weighs a lot.
import { contentWords } from './text.js'

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

/** The distinct stemmed content words of a text. */
export function termsOf(text: string): Set<string> {
  return new Set(contentWords(text).map(stemOf))
}

export class WordWeights {
  readonly #documentFrequency = new Map<string, number>()
  #documents = 0

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
