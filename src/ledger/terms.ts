// Names, numbers and dates in memory text, and an index of what texts still mention (so moved ≠ vanished).
import type { LossKind } from './types.js'

/** One name, number or date as it stood in a text. `key` is what presence is checked by. */
export interface Term {
  kind: LossKind
  term: string
  key: string
  line: string
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const MONTH =
  '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)'
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g
const MONTH_FIRST = new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4})\\b)?`, 'g')
const DAY_FIRST = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b(?:,?\\s+(\\d{4})\\b)?`,
  'g',
)
const NUMBER = /(?<![\p{L}\p{N}_])\d+(?:[.,:]\d+)*/gu
const CAPITALISED = /(?<![\p{L}\p{M}\p{N}_'’])\p{Lu}[\p{L}\p{M}\p{N}'’-]*/gu
const WORD = /[\p{L}\p{M}\p{N}'’-]+/gu
const HEADING = /^\s{0,3}#{1,6}\s/
const LIST_NUMBER = /^(\s*)\d+[.)](?=\s)/
// Before a word at the start of a line: only markdown markup (bullets, quotes, emphasis, strike-through, links).
const LINE_START = /^[\s>#*+\-.)[\]_~`|]*$/
const AFTER_SENTENCE = /[.!?]["'’”)\]*_~]*\s+[*_~"“([]*$/
const MAX_LINE_CHARS = 160

// Capitalised words that are never names on their own.
const NOT_NAMES = new Set(
  (
    'I Im I’m I’ve I’d I’ll Ive Id Ill Me My We Our You Your He She They It Its The A An This That These Those ' +
    'And But Or So If Then There Here What When Where Why How Who Yes No Ok OK Okay TODO NOTE FYI Note Todo ' +
    'Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mon Tue Wed Thu Fri Sat Sun Today Tomorrow Yesterday ' +
    'January February March April May June July August September October November December'
  ).split(' '),
)

/** `text` without HTML comments (entry keys, cue blocks: machine metadata, not memory). */
export function withoutComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, '')
}

function monthNumber(name: string): string {
  return String(MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1).padStart(2, '0')
}

function dateKey(year: string | undefined, month: string, day: string): string {
  return `d:${year ?? ''}--${month}-${day.padStart(2, '0')}`
}

/** Every date in `line` with its key, plus the line with the dates blanked out (so digits are not re-read). */
function takeDates(line: string): { dates: { term: string; keys: string[] }[]; rest: string } {
  const dates: { term: string; keys: string[] }[] = []
  const blank = (match: string): string => ' '.repeat(match.length)
  let rest = line.replace(ISO_DATE, (match, y: string, m: string, d: string) => {
    dates.push({ term: match, keys: [dateKey(y, m, d), dateKey(undefined, m, d)] })
    return blank(match)
  })
  const textual = (match: string, month: string, day: string, year: string | undefined): string => {
    if (Number(day) < 1 || Number(day) > 31) return match
    const keys = [dateKey(year, monthNumber(month), day)]
    if (year) keys.push(dateKey(undefined, monthNumber(month), day))
    dates.push({ term: match.trim(), keys })
    return blank(match)
  }
  rest = rest.replace(MONTH_FIRST, (match, month: string, day: string, year?: string) =>
    textual(match, month, day, year),
  )
  rest = rest.replace(DAY_FIRST, (match, day: string, month: string, year?: string) =>
    textual(match, month, day, year),
  )
  return { dates, rest }
}

/** An ordered-list marker ("3. ") is layout, not a number worth keeping. */
function withoutListNumber(line: string): string {
  return line.replace(LIST_NUMBER, (_match, indent: string) => `${indent}  `)
}

function numberKey(raw: string): string {
  return `n:${raw.replace(/,(?=\d{3}(?!\d))/g, '')}`
}

function wordKey(word: string): string {
  return `w:${word.replace(/’/g, "'").replace(/'s$/, '').toLowerCase()}`
}

function cleanName(raw: string): string {
  return raw.replace(/['’]s$/, '').replace(/['’-]+$/, '')
}

/** True for a capitalised word that starts a line or a sentence, where capitals prove nothing. */
function isSentenceStart(line: string, index: number): boolean {
  const before = line.slice(0, index)
  return LINE_START.test(before) || AFTER_SENTENCE.test(before)
}

/** Acronyms and inner capitals ("AWS", "PostgreSQL", "S3") are names wherever they stand. */
function isStrongName(word: string): boolean {
  return /.[\p{Lu}\p{N}]/u.test(word)
}

/**
 * The names, numbers and dates of `text`. A capitalised word opening a sentence counts as a name only when
 * it is an acronym or inner-capital word, or when `midSentenceNames` (see below) has seen it mid-sentence.
 */
export function extractTerms(text: string, midSentenceNames: ReadonlySet<string> = new Set()): Term[] {
  const terms: Term[] = []
  for (const raw of withoutComments(text).split('\n')) {
    const line = raw.trim().slice(0, MAX_LINE_CHARS)
    const { dates, rest } = takeDates(withoutListNumber(raw))
    for (const date of dates) terms.push({ kind: 'date', term: date.term, key: date.keys[0] as string, line })
    for (const match of rest.matchAll(NUMBER))
      terms.push({ kind: 'number', term: match[0], key: numberKey(match[0]), line })
    if (HEADING.test(raw)) continue
    for (const match of rest.matchAll(CAPITALISED)) {
      const name = cleanName(match[0])
      if (name.length < 2 || NOT_NAMES.has(name)) continue
      const initial = isSentenceStart(rest, match.index ?? 0)
      if (initial && !isStrongName(name) && !midSentenceNames.has(name)) continue
      terms.push({ kind: 'name', term: name, key: wordKey(name), line })
    }
  }
  return terms
}

/** Capitalised words that stand mid-sentence somewhere in `texts`: evidence they are names. */
export function midSentenceNames(texts: readonly string[]): Set<string> {
  const names = new Set<string>()
  for (const text of texts) {
    for (const raw of withoutComments(text).split('\n')) {
      if (HEADING.test(raw)) continue
      const { rest } = takeDates(withoutListNumber(raw))
      for (const match of rest.matchAll(CAPITALISED)) {
        if (!isSentenceStart(rest, match.index ?? 0)) names.add(cleanName(match[0]))
      }
    }
  }
  return names
}

/** Adds the keys of everything `text` mentions: every word (any case), number and date. */
export function addMentions(index: Set<string>, text: string): void {
  for (const raw of withoutComments(text).split('\n')) {
    const { dates, rest } = takeDates(withoutListNumber(raw))
    for (const date of dates) for (const key of date.keys) index.add(key)
    for (const match of rest.matchAll(NUMBER)) index.add(numberKey(match[0]))
    for (const match of rest.matchAll(WORD)) index.add(wordKey(cleanName(match[0])))
  }
}
