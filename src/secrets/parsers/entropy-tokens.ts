// Long random-looking tokens with no known prefix: many characters, mixed classes, high entropy. Hashes, UUIDs
// and paths look random too and are no secret, so they are left alone.
import { entropyBitsPerChar } from '../checksums.js'
import type { SecretParser, SecretSpan } from '../types.js'

const MIN_CHARS = 24
const MIN_BITS_PER_CHAR = 3.6
// Base64 and URL-safe alphabets; `=` only as trailing padding, so `KEY=value` is two tokens, not one.
const CANDIDATE = /(?<![A-Za-z0-9_+/=.-])[A-Za-z0-9_+/-]{24,}={0,2}(?![A-Za-z0-9_+/=-])/g
const HEX_OR_UUID = /^(?:[0-9a-f]+|[0-9A-F]+|[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12})$/
// A compact timestamp inside a token makes it an id (dreamlane's run and backup ids: run-20261207T171517640Z-d089f0),
// which the dream diary and every summary name: withheld, a second dream would "clean" its own diary.
const COMPACT_TIMESTAMP = /\d{8}T\d{6}/

function looksRandom(token: string): boolean {
  if (token.length < MIN_CHARS || HEX_OR_UUID.test(token) || COMPACT_TIMESTAMP.test(token)) return false
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((pattern) => pattern.test(token)).length
  if (classes < 3) return false
  // Words joined by dashes or underscores (slugs, identifiers) are not random.
  if (/^(?:[A-Za-z][a-z]+[-_]?)+$/.test(token.replace(/\d+/g, ''))) return false
  return entropyBitsPerChar(token) >= MIN_BITS_PER_CHAR
}

export const entropyTokenParser: SecretParser = {
  name: 'entropy-tokens',
  find(text) {
    const spans: SecretSpan[] = []
    for (const match of text.matchAll(CANDIDATE)) {
      if (!looksRandom(match[0])) continue
      spans.push({ kind: 'secret-token', start: match.index, end: match.index + match[0].length })
    }
    return spans
  },
}
