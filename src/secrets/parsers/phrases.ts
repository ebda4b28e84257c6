// The phrase parser every locale shares: "<noun> <copula> <value>" ("my wifi password is X", "mein Passwort ist X",
// "PIN: 4821"), and the noun left dangling at a message's end, whose value the next message may bring.
import type { SecretKind, SecretParser, SecretSpan } from '../types.js'

/** One thing a locale names as secret, e.g. { kind: 'wifi-password', pattern: 'wi-?fi password' }. */
export interface PhraseNoun {
  kind: SecretKind
  /** Regex source, matched case-insensitively at word edges. */
  pattern: string
}

/** What a locale contributes to the phrase parser (locales/<xx>/phrases.ts). */
export interface LocalePhrases {
  locale: string
  /** Most specific first: for the same value the first noun's kind wins. */
  nouns: readonly PhraseNoun[]
  /** Regex source of what joins noun and value ("is", "ist", "é", "lautet"); `:` and `=` are always allowed. */
  copulas: string
  /** Regex source of a short qualifier between noun and copula ("for the cabin", "del wifi"), or ''. */
  qualifiers: string
  /** Words that follow a copula without being a value ("the", "on", "written"), lower case. */
  notValues: readonly string[]
}

/** Kinds whose value is a number or code, so it may follow the noun with no copula ("PIN 4821"). */
const BARE_VALUE_KINDS: ReadonlySet<SecretKind> = new Set([
  'pin',
  'one-time-code',
  'security-code',
  'passport',
  'national-id',
])

const QUOTED = `["'“”«„‘’\`]([^"'“”«»„‘’\`\\n]{1,120})["'“”»‘’\`]`
const BARE = `([^\\s"'“”«»„‘’\`]+)`
const EDGE_BEFORE = '(?<![\\p{L}\\p{N}_])'
const EDGE_AFTER = '(?![\\p{L}\\p{N}_])'

/** Longest copula first ("is now" before "is"): a value found is not looked for again. */
function copulasOf(locale: LocalePhrases): string {
  return locale.copulas
    .split('|')
    .sort((a, b) => b.length - a.length)
    .join('|')
}

function joinSource(locale: LocalePhrases): string {
  const qualifier = locale.qualifiers === '' ? '' : `(?:\\s+(?:${locale.qualifiers}))?`
  return `${qualifier}\\s*(?:(?:${copulasOf(locale)})\\s*[:=]?|[:=]|->)\\s*`
}

/** A span of a phrase's value, marked phrased so the look-alike filter checks its shape. */
export interface PhrasedSpan extends SecretSpan {
  isPhrased: true
}

function valueSpan(kind: SecretKind, match: RegExpExecArray): PhrasedSpan | null {
  const quoted = match[1]
  const bare = match[2]
  const value = quoted ?? bare
  if (value === undefined) return null
  // A sentence's full stop or comma is not part of the value.
  const trimmed = quoted === undefined ? value.replace(/[.,;:!?)\]]+$/, '') : value
  if (trimmed === '') return null
  const start = match.index + match[0].length - value.length - (quoted === undefined ? 0 : 1)
  return { kind, start, end: start + trimmed.length, isPhrased: true }
}

/** The phrase parser of one locale: each noun followed by its value. */
export function phraseParser(locale: LocalePhrases): SecretParser {
  const join = joinSource(locale)
  const patterns = locale.nouns.map((noun) => {
    const bareJoin = BARE_VALUE_KINDS.has(noun.kind) ? `(?:${join}|\\s*(?:#|n[ºo°]\\.?|no\\.)?\\s*)` : join
    const source = `${EDGE_BEFORE}(?:${noun.pattern})${EDGE_AFTER}${bareJoin}(?:${QUOTED}|${BARE})`
    return { kind: noun.kind, pattern: new RegExp(source, 'giu') }
  })
  // One test for any noun first: most texts name none, and then no noun's own pattern needs to run.
  const anyNoun = new RegExp(
    `${EDGE_BEFORE}(?:${locale.nouns.map((noun) => noun.pattern).join('|')})${EDGE_AFTER}`,
    'iu',
  )
  return {
    name: `phrases-${locale.locale}`,
    find(text) {
      const spans: SecretSpan[] = []
      if (!anyNoun.test(text)) return spans
      for (const { kind, pattern } of patterns) {
        pattern.lastIndex = 0
        for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
          const span = valueSpan(kind, match)
          if (span) spans.push(span)
        }
      }
      return spans
    },
  }
}

/** Finds a noun left without its value at the end of a text ("the wifi password is", "PIN?"), per locale. */
export function danglingFinder(locale: LocalePhrases): (text: string) => SecretKind | null {
  const qualifier = locale.qualifiers === '' ? '' : `(?:\\s+(?:${locale.qualifiers}))?`
  const patterns = locale.nouns.map((noun) => ({
    kind: noun.kind,
    pattern: new RegExp(
      `${EDGE_BEFORE}(?:${noun.pattern})${qualifier}\\s*(?:(?:${copulasOf(locale)})\\s*)?[:=?]?\\s*[.…:!?]*\\s*$`,
      'iu',
    ),
  }))
  return (text) => patterns.find(({ pattern }) => pattern.test(text))?.kind ?? null
}
