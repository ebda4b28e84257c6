// The fast paths of foldCase and termsOf give exactly what the plain definitions give, on any text.
import { describe, expect, it } from 'vitest'
import { contentWords, foldCase } from '../../../src/model/offline/text.js'
import { stemOf, termsOf } from '../../../src/model/offline/word-weights.js'
import { Prng } from '../../../src/sample/prng.js'

/** foldCase as defined: unit for unit, a character lower-cased only when that keeps its length. */
function foldCaseByCharacter(text: string): string {
  let out = ''
  for (const char of text) {
    const lower = char === '’' || char === '‘' ? "'" : char === '“' || char === '”' ? '"' : char.toLowerCase()
    out += lower.length === char.length ? lower : char
  }
  return out
}

// ASCII, curly quotes, and characters whose case rules are special: final sigma, dotted I, ß, ligatures, emoji.
const PIECES = [
  'I',
  'Moved',
  'to',
  'PORTO',
  ' ',
  ' ',
  '.',
  ',',
  "'s",
  '-',
  '’',
  '‘',
  '“',
  '”',
  '42',
  'Dancing',
  'dances',
  'ΟΔΟΣ',
  'Σ',
  'İstanbul',
  'STRAßE',
  'ﬁle',
  'Ünïcödé',
  '😀',
  'the',
  'and',
  'Maya’s',
  "don't",
  '--x--',
  '\n',
]

function randomText(prng: Prng, asciiOnly: boolean): string {
  const pool = asciiOnly ? PIECES.filter((piece) => /^[\x00-\x7f‘’“”]*$/.test(piece)) : PIECES
  return Array.from({ length: 1 + Math.floor(prng.next() * 30) }, () => {
    const piece = pool[Math.floor(prng.next() * pool.length)]!
    return prng.next() < 0.7 ? `${piece} ` : piece
  }).join('')
}

describe('word terms', () => {
  it('foldCase equals the character-by-character definition, ASCII or not', () => {
    const prng = new Prng(5)
    for (let round = 0; round < 3000; round++) {
      const text = randomText(prng, round % 2 === 0)
      expect(foldCase(text)).toBe(foldCaseByCharacter(text))
    }
    expect(foldCase('ΟΔΟΣ İs “Big”')).toBe(foldCaseByCharacter('ΟΔΟΣ İs “Big”'))
  })

  it('termsOf (cached per word) equals the stems of the content words, in first-seen order', () => {
    const prng = new Prng(9)
    for (let round = 0; round < 3000; round++) {
      const text = randomText(prng, round % 3 === 0)
      expect([...termsOf(text)]).toEqual([...new Set(contentWords(text).map(stemOf))])
    }
    expect([...termsOf('Maya’s dancing; she dances, danced!')]).toEqual(['maya', 'danc'])
  })
})
