// National ids whose shape (and check digit, where there is one) is specific enough to find without a phrase:
// US SSN, UK National Insurance number, Spanish DNI/NIE, German Steuer-ID.
import { isGermanTaxIdValid, isSpanishIdValid } from '../checksums.js'
import type { SecretParser, SecretSpan } from '../types.js'

interface IdShape {
  pattern: RegExp
  isValid?: (match: string) => boolean
}

const SHAPES: readonly IdShape[] = [
  // SSA rules: no 000, 666 or 9xx area, no 00 group, no 0000 serial; dashes required (bare 9 digits is anything).
  { pattern: /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g },
  // HMRC: two prefix letters (not D, F, I, Q, U, V; second not O; not BG, GB, NK, KN, TN, NT, ZZ), six digits, A–D.
  {
    pattern: /\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g,
  },
  { pattern: /\b(?:\d{8}|[XYZ]\d{7})-?[A-Z]\b/g, isValid: isSpanishIdValid },
  {
    pattern: /(?<![\d+])[1-9]\d(?: ?\d{3}){3}(?!\d)/g,
    isValid: (id) => isGermanTaxIdValid(id.replace(/ /g, '')),
  },
]

export const nationalIdParser: SecretParser = {
  name: 'national-ids',
  find(text) {
    const spans: SecretSpan[] = []
    for (const { pattern, isValid } of SHAPES) {
      for (const match of text.matchAll(pattern)) {
        if (isValid && !isValid(match[0])) continue
        spans.push({ kind: 'national-id', start: match.index, end: match.index + match[0].length })
      }
    }
    return spans
  },
}
