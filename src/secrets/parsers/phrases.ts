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
  /** Ways of saying a value was given to a noun: "set the password to X", "das Passwort auf X geändert". */
  setters?: readonly PhraseSetter[]
}

/**
 * A verb that gives a noun its value, with what joins the two instead of a copula: before the noun ("set the wifi
 * password to X", a few words between) or after the value ("das Passwort auf X geändert"). A bare value there must
 * look chosen (a digit, a sign, mixed case): "change the password to protect it" names no password.
 */
export interface PhraseSetter {
  /** Regex source of the verbs before the noun, or '' when the verb comes after the value. */
  before: string
  /** Regex source of what joins noun and value ("to", "as", "auf", "para"). */
  joins: string
  /** Regex source of the verbs after the value (German participles), or ''. */
  after: string
}

/** Kinds whose value is a number or code, so it may follow the noun with no copula ("PIN 4821"). */
const BARE_VALUE_KINDS: ReadonlySet<SecretKind> = new Set([
  'pin',
  'one-time-code',
  'security-code',
  'passport',
  'national-id',
])

/** A bare value a setter gives must look chosen, not like the sentence's next word. */
const LOOKS_CHOSEN = /\d|[^\p{L}\p{N}]|\p{Lu}.*\p{Ll}.*\p{Lu}|\p{Ll}.*\p{Lu}/u

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

/** Setter patterns of one noun: the verb, a few words, the noun, a join and the value (or value, then verb). */
function setterSources(locale: LocalePhrases, noun: PhraseNoun): string[] {
  const qualifier = locale.qualifiers === '' ? '' : `(?:\\s+(?:${locale.qualifiers}))?`
  return (locale.setters ?? []).map((setter) => {
    const verb = setter.before === '' ? '' : `(?:${setter.before})\\s+(?:[\\p{L}\\p{N}'’-]+\\s+){0,3}?`
    const after = setter.after === '' ? '' : `\\s+(?:${setter.after})${EDGE_AFTER}`
    return `${EDGE_BEFORE}${verb}(?:${noun.pattern})${EDGE_AFTER}${qualifier}\\s+(?:${setter.joins})\\s+(?:${QUOTED}|${BARE})${after}`
  })
}

/** A setter's value, placed by its group's indices (a participle may follow it); a bare one must look chosen. */
function setterSpan(kind: SecretKind, match: RegExpExecArray): PhrasedSpan | null {
  const group = match[1] !== undefined ? 1 : 2
  const at = match.indices?.[group]
  const raw = match[group]
  if (!at || raw === undefined) return null
  const value = group === 1 ? raw : raw.replace(/[.,;:!?)\]]+$/, '')
  if (value === '' || (group === 2 && !LOOKS_CHOSEN.test(value))) return null
  return { kind, start: at[0], end: at[0] + value.length, isPhrased: true }
}

/** The phrase parser of one locale: each noun followed by its value, or given it by a setter. */
export function phraseParser(locale: LocalePhrases): SecretParser {
  const join = joinSource(locale)
  const patterns = locale.nouns.flatMap((noun) => {
    const bareJoin = BARE_VALUE_KINDS.has(noun.kind) ? `(?:${join}|\\s*(?:#|n[ºo°]\\.?|no\\.)?\\s*)` : join
    const source = `${EDGE_BEFORE}(?:${noun.pattern})${EDGE_AFTER}${bareJoin}(?:${QUOTED}|${BARE})`
    const setters = setterSources(locale, noun).map((setter) => ({
      kind: noun.kind,
      pattern: new RegExp(setter, 'giud'),
      isSetter: true,
    }))
    return [{ kind: noun.kind, pattern: new RegExp(source, 'giu'), isSetter: false }, ...setters]
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
      for (const { kind, pattern, isSetter } of patterns) {
        pattern.lastIndex = 0
        for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
          const span = isSetter ? setterSpan(kind, match) : valueSpan(kind, match)
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
