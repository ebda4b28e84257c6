// Drops phrase values that do not look like the secret their noun names: "the password is on the fridge",
// "my PIN is new", "passport number is expiring", "code 12".
import type { PhrasedSpan } from '../parsers/phrases.js'
import type { SecretKind, SecretRefiner, SecretSpan } from '../types.js'

/** What a value of each kind looks like when a phrase introduces it. */
const VALUE_SHAPES: Partial<Record<SecretKind, RegExp>> = {
  pin: /^\d{4,8}$/,
  'one-time-code': /^(?=.*\d)[A-Z0-9-]{4,10}$/i,
  'security-code': /^\d{3,4}$/,
  passport: /^(?=.*\d)[A-Z0-9]{6,10}$/i,
  'national-id': /^(?=(?:.*\d){5})[A-Z0-9][A-Z0-9 .-]{4,18}$/i,
  card: /^\d[\d -]{11,22}$/,
  'api-key': /^\S{12,}$/,
  'access-token': /^\S{12,}$/,
}

const isPhrased = (span: SecretSpan): span is PhrasedSpan => (span as Partial<PhrasedSpan>).isPhrased === true

/** A refiner over phrased spans: shape by kind, and no locale's "not a value" word. */
export function unlikelyValueFilter(notValues: ReadonlySet<string>): SecretRefiner {
  return {
    name: 'unlikely-values',
    refine(text, spans) {
      return spans.filter((span) => {
        if (!isPhrased(span)) return true
        const value = text.slice(span.start, span.end)
        if (notValues.has(value.toLowerCase())) return false
        const shape = VALUE_SHAPES[span.kind]
        if (shape) return shape.test(value)
        // Passwords: anything of 4+ characters that is not a date, a time or a sentence's next word.
        return value.length >= 4 && !/^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$|^\d{1,2}[:h]\d{2}$/.test(value)
      })
    },
  }
}
