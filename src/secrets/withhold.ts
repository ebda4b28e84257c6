// Replaces each secret in a text with its marker: what memory keeps is that a secret was said, and where.
import { detectSecrets, type DetectOptions } from './detect.js'
import { withheldMarker, type SecretOrigin } from './marker.js'
import type { SecretKind, SecretSpan } from './types.js'

export interface Withheld {
  /** The text with every secret replaced by its marker. */
  text: string
  /** The kinds withheld, in text order (one per secret). */
  kinds: SecretKind[]
  /** Where each withheld value was in the original text. */
  spans: readonly SecretSpan[]
}

/** `text` with the given spans (in order, not overlapping) replaced by markers naming `origin`. */
export function replaceSpans(text: string, spans: readonly SecretSpan[], origin?: SecretOrigin): Withheld {
  if (spans.length === 0) return { text, kinds: [], spans }
  let out = ''
  let at = 0
  for (const span of spans) {
    out += text.slice(at, span.start) + withheldMarker(span.kind, origin)
    at = span.end
  }
  return { text: out + text.slice(at), kinds: spans.map((span) => span.kind), spans }
}

/** `text` with every secret the detector finds withheld. */
export function withholdSecrets(text: string, options: DetectOptions = {}, origin?: SecretOrigin): Withheld {
  return replaceSpans(text, detectSecrets(text, options), origin)
}
