// Payment card numbers: 13–19 digits in one run or groups, an issuer's leading digits, and a valid Luhn check.
import { isLuhnValid } from '../checksums.js'
import type { SecretParser, SecretSpan } from '../types.js'

// Digits alone, or groups split by single spaces or dashes; no digit, '+' or '.' on either side (phones, amounts).
const CANDIDATE = /(?<![\d+.,/-])\d(?:[ -]?\d){12,18}(?![\d])(?![.,]\d)/g

/** Lengths each issuer's numbers come in, by leading digits (Visa, Mastercard, Amex, Discover, JCB, …). */
function hasIssuerShape(digits: string): boolean {
  const length = digits.length
  if (digits.startsWith('4')) return length === 13 || length === 16 || length === 19
  if (/^(?:5[1-5]|2[2-7])/.test(digits)) return length === 16
  if (/^3[47]/.test(digits)) return length === 15
  if (/^(?:6|35)/.test(digits)) return length >= 16 && length <= 19
  return false
}

export const cardParser: SecretParser = {
  name: 'cards',
  find(text) {
    const spans: SecretSpan[] = []
    for (const match of text.matchAll(CANDIDATE)) {
      const digits = match[0].replace(/[ -]/g, '')
      if (/^(\d)\1+$/.test(digits) || !hasIssuerShape(digits) || !isLuhnValid(digits)) continue
      spans.push({ kind: 'card', start: match.index, end: match.index + match[0].length })
    }
    return spans
  },
}
