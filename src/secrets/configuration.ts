// Assembles the detector: the shape parsers every language shares, each locale's phrases, then the refiners.
import { DE_PHRASES } from './locales/de/phrases.js'
import { EN_PHRASES } from './locales/en/phrases.js'
import { ES_PHRASES } from './locales/es/phrases.js'
import { FR_PHRASES } from './locales/fr/phrases.js'
import { IT_PHRASES } from './locales/it/phrases.js'
import { PT_PHRASES } from './locales/pt/phrases.js'
import { assignmentParser } from './parsers/assignments.js'
import { cardParser } from './parsers/cards.js'
import { entropyTokenParser } from './parsers/entropy-tokens.js'
import { ibanParser } from './parsers/ibans.js'
import { nationalIdParser } from './parsers/national-ids.js'
import { phraseParser, type LocalePhrases } from './parsers/phrases.js'
import { prefixedTokenParser } from './parsers/prefixed-tokens.js'
import { privateKeyParser } from './parsers/private-keys.js'
import { overlapMerger } from './refiners/merge-overlaps.js'
import { unlikelyValueFilter } from './refiners/unlikely-values.js'
import { withheldMarkerFilter } from './refiners/withheld-markers.js'
import type { SecretParser, SecretRefiner } from './types.js'

/** Every locale whose phrases the detector knows; a new language is one more folder and one more entry. */
export const LOCALES: readonly LocalePhrases[] = [
  EN_PHRASES,
  ES_PHRASES,
  PT_PHRASES,
  DE_PHRASES,
  FR_PHRASES,
  IT_PHRASES,
]

export interface DetectorConfiguration {
  parsers: readonly SecretParser[]
  refiners: readonly SecretRefiner[]
}

/** Parsers most specific first: for the same stretch of text the first one's kind wins. */
export function createConfiguration(locales: readonly LocalePhrases[] = LOCALES): DetectorConfiguration {
  const notValues = new Set(locales.flatMap((locale) => locale.notValues))
  return {
    parsers: [
      privateKeyParser,
      prefixedTokenParser,
      cardParser,
      ibanParser,
      nationalIdParser,
      ...locales.map(phraseParser),
      assignmentParser,
      entropyTokenParser,
    ],
    refiners: [unlikelyValueFilter(notValues), withheldMarkerFilter, overlapMerger],
  }
}
