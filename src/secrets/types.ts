// What the secret detector finds: a span of text, the kind of secret it is, and the value it covers.

/** Every kind of secret the detector names; `privacy.keepSecretKinds` keeps a listed kind on purpose. */
export const SECRET_KINDS = [
  'password',
  'wifi-password',
  'pin',
  'one-time-code',
  'security-code',
  'api-key',
  'access-token',
  'secret-token',
  'private-key',
  'card',
  'iban',
  'national-id',
  'passport',
] as const

export type SecretKind = (typeof SECRET_KINDS)[number]

/** One secret in a text: `text.slice(start, end)` is its value, never shown again once withheld. */
export interface SecretSpan {
  kind: SecretKind
  start: number
  end: number
}

/** One pattern family: finds candidate spans in a text (filters run after, see refiners/). */
export interface SecretParser {
  readonly name: string
  find(text: string): SecretSpan[]
}

/** A filter or merge over every parser's spans, e.g. dropping look-alikes or overlaps. */
export interface SecretRefiner {
  readonly name: string
  refine(text: string, spans: SecretSpan[]): SecretSpan[]
}
