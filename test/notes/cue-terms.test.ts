// The cue-term counter against the plain definition it replaced: WORD over the lower-cased text and a Map.
import { describe, expect, it } from 'vitest'
import { MAX_DISTINCT_TERMS, MAX_SCAN_CHARS, TermCounter, WORD } from '../../src/notes/cue-terms.js'

const STOPWORDS_SAMPLE = ['the', "it's", "aren't", 'also', 'yes']

/** The definition: every WORD match of the lower-cased prefix, `'s` dropped, stopwords and short terms skipped. */
class ReferenceCounter {
  readonly counts = new Map<string, number>()
  readonly stopwords: ReadonlySet<string>
  constructor(stopwords: ReadonlySet<string>) {
    this.stopwords = stopwords
  }
  add(text: string): void {
    for (const word of text.slice(0, MAX_SCAN_CHARS).toLowerCase().match(WORD) ?? []) {
      const term = word.endsWith("'s") || word.endsWith('’s') ? word.slice(0, -2) : word
      if (term.length < 3 || this.stopwords.has(term)) continue
      this.counts.set(term, (this.counts.get(term) ?? 0) + 1)
    }
    if (this.counts.size > MAX_DISTINCT_TERMS)
      for (const [term, count] of this.counts) if (count === 1) this.counts.delete(term)
  }
  top(max: number): string[] {
    return [...this.counts]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, max)
      .map(([term]) => term)
  }
}

function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0
    return state / 4294967296
  }
}

// Pieces that sit on WORD's edges: joiners, digits, apostrophes, case, scripts whose case mapping grows.
const PIECES = [
  'Trip',
  'trip',
  "John's",
  "JOHN'S",
  'it’s',
  "it's",
  'co-op',
  'co--op',
  "rock'n'roll",
  "x'",
  "'s",
  'a1b2',
  '2fa',
  'v1.2',
  '-',
  "'",
  '’',
  ' ',
  '\n',
  '\t',
  'Café',
  'İstanbul',
  'ΣΊΣΥΦΟΣ',
  'straße',
  '東京',
  '🙂',
  'ǅemal',
  'e-',
  '-x',
  'the',
  'The',
  "aren't",
  'also',
  'Yes',
  'ok',
  'AB',
  'abc',
  'ab-c',
  "ab's",
  "ab'S",
  'x2y',
  '\u0000',
]

describe('TermCounter', () => {
  it('counts exactly what WORD over the lower-cased text counts, on random mixes of edge pieces', () => {
    const next = random(7)
    for (let round = 0; round < 300; round++) {
      const counter = new TermCounter()
      const stopwords = new Set(STOPWORDS_SAMPLE)
      const reference = new ReferenceCounter(stopwords)
      for (let message = 0; message < 20; message++) {
        const ascii = next() < 0.5
        const text = Array.from({ length: Math.floor(next() * 30) }, () => {
          const piece = PIECES[Math.floor(next() * PIECES.length)] as string
          return ascii ? piece.replace(/[^\x00-\x7f]/g, 'z') : piece
        }).join(next() < 0.5 ? '' : ' ')
        counter.add(text)
        reference.add(text)
      }
      // Only the sample stopwords are shared with the reference, so compare on terms that are not stopwords.
      const reals = new Set(['the', "it's", "aren't", 'also', 'yes', 'ok'])
      expect(counter.top(1000).filter((term) => !reals.has(term))).toEqual(
        reference.top(1000).filter((term) => !reals.has(term)),
      )
    }
  })

  it('skips stopwords, short terms and a trailing possessive, and ranks ties in code-unit order', () => {
    const counter = new TermCounter()
    counter.add("The ferry's late; the FERRY leaves at 9. Ferry! it's ok. Garden garden zebra apple")
    expect(counter.top(10)).toEqual(['ferry', 'garden', 'apple', 'late', 'leaves', 'zebra'])
  })

  it('looks at only the first MAX_SCAN_CHARS characters of a message', () => {
    const counter = new TermCounter()
    counter.add(`${'x '.repeat(MAX_SCAN_CHARS / 2 - 2)}alpha beta`)
    expect(counter.top(5)).toEqual(['alph'])
  })

  it('drops terms seen once when there are too many, and keeps the rest counting', () => {
    const counter = new TermCounter()
    const reference = new ReferenceCounter(new Set())
    for (let message = 0; message < 130; message++) {
      const text = `${Array.from({ length: 400 }, (_, k) => `u${(message * 400 + k).toString(36)}q`).join(' ')} keep keep`
      counter.add(text)
      reference.add(text)
    }
    expect(counter.top(20)).toEqual(reference.top(20))
    expect(counter.top(1)).toEqual(['keep'])
  })
})
