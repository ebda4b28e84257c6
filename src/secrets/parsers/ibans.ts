// IBANs: a country's length, then the ISO 13616 mod-97 check; written compact or in groups of four.
import { isIbanChecksumValid } from '../checksums.js'
import type { SecretParser, SecretSpan } from '../types.js'

/** IBAN lengths of the countries chats most often name (SWIFT registry); others still pass on length 15–34. */
const LENGTHS: Record<string, number> = {
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  BR: 29,
  TR: 26,
  AE: 23,
  SA: 24,
  IL: 23,
  MC: 27,
  SM: 27,
}

const CANDIDATE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/gi

export const ibanParser: SecretParser = {
  name: 'ibans',
  find(text) {
    const spans: SecretSpan[] = []
    for (const match of text.matchAll(CANDIDATE)) {
      const compact = match[0].replace(/ /g, '').toUpperCase()
      const expected = LENGTHS[compact.slice(0, 2)]
      const isLengthOk = expected === undefined ? compact.length >= 15 : compact.length === expected
      if (!isLengthOk || !isIbanChecksumValid(compact)) continue
      spans.push({ kind: 'iban', start: match.index, end: match.index + match[0].length })
    }
    return spans
  },
}
