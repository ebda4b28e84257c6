// Relative months and years ("last year", "two months ago", "next month") resolved against the day a message
// was written, so a note read a year later still says when: "last year (2025)". Days are dates.ts's job.
import { MONTH_NAMES } from '../../time/local-day.js'

const COUNTS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  few: 3,
  couple: 2,
}

const SPAN =
  /\b(?:(last|next|this|past|previous)\s+(year|month)|(a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2}|a few|a couple of)\s+(years?|months?)\s+ago)\b/gi

function countOf(word: string): number {
  const plain = word
    .toLowerCase()
    .replace(/^a (few|couple of)$/, '$1')
    .replace(' of', '')
  return /^\d+$/.test(plain) ? Number(plain) : (COUNTS[plain] ?? 1)
}

function monthLabel(year: number, monthIndex: number): string {
  const date = new Date(Date.UTC(year, monthIndex, 1))
  return `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}

// "around 3 years ago", "almost two months ago": the speaker says the count is a guess.
const ROUGHLY_BEFORE =
  /\b(?:around|about|roughly|approximately|almost|nearly|over|more than|less than|like|some)\s+$/i

/** The resolved label for one span, relative to `day` (YYYY-MM-DD); null for "this year" (the note says it). */
function resolve(match: RegExpMatchArray, day: string, isRough: boolean): string | null {
  const [year, month] = day.split('-').map(Number) as [number, number]
  const direction = match[1]?.toLowerCase()
  const unit = (match[2] ?? match[4] ?? '').toLowerCase()
  const steps = direction
    ? direction === 'next'
      ? 1
      : direction === 'this'
        ? 0
        : -1
    : -countOf(match[3] ?? 'one')
  if (steps === 0) return null
  // "a few years ago" is vague: the year is a guess, so it says "about".
  const about = isRough || /few|couple/i.test(match[3] ?? '') ? 'about ' : ''
  if (unit.startsWith('year')) return `${about}${year + steps}`
  return about + monthLabel(year, month - 1 + steps)
}

/** `sentence` with each relative month or year followed by its resolved value in parentheses. */
export function annotateSpans(sentence: string, day: string): string {
  return sentence.replace(SPAN, (...args) => {
    const match = args.slice(0, -2) as unknown as RegExpMatchArray
    const offset = args.at(-2) as number
    // "in the past year", "over the last month", "this past month": the months up to now, not a calendar unit.
    const isStretch =
      /^(?:last|past)$/i.test(match[1] ?? '') && /\b(?:the|this)\s+$/i.test(sentence.slice(0, offset))
    if (isStretch) return match[0]
    const label = resolve(match, day, ROUGHLY_BEFORE.test(sentence.slice(0, offset)))
    return label === null ? match[0] : `${match[0]} (${label})`
  })
}
