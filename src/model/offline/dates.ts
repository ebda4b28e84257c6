// Date mentions in a sentence, resolved by chrono-node against the message's own local time: "next Friday" → a day.
import type * as chrono from 'chrono-node'
import { parseDates } from './date-parser.js'
import { addDays, localDayOf, localTimeOf } from '../../time/local-day.js'

/** A calendar date the sentence names, resolved to local days. */
export interface DateMention {
  /** The words as written ("next Friday", "Dec 4 to Dec 11"). */
  text: string
  index: number
  day: string
  /** The end of a range ("from Dec 4 to Dec 11"), when the mention is one. */
  endDay: string | null
  /**
   * The other day the words can mean, when they are ambiguous ("last Monday" said on a Tuesday: yesterday, or the
   * Monday of the week before); `day` is then only chrono's pick, and the notes name both.
   */
  otherDay?: { day: string; endDay: string | null }
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0')

// Words that pin a day even though chrono marks the day itself as implied.
const RELATIVE_DAY =
  /\b(today|tonight|tomorrow|yesterday|day after tomorrow|in \w+ (?:days?|weeks?)|end of (?:the )?(?:week|month))\b/i

function dayOf(components: chrono.ParsedComponents): string {
  const year = pad(components.get('year') ?? 0, 4)
  return `${year}-${pad(components.get('month') ?? 1)}-${pad(components.get('day') ?? 1)}`
}

// A day is named by a number, a month or weekday name, or a relative day word — never by "now" alone.
const DAY_WORD = new RegExp(
  [
    '\\d',
    '\\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\b',
    '\\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)\\b',
    '\\b(?:today|tonight|tomorrow|yesterday|weekend)\\b',
  ].join('|'),
  'i',
)
// How many of a unit: "a", "two", "a few", "25".
const COUNT = '(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|several|\\d+)'
// "2 hours", "2 hours 7 minutes", "1 hr and 30 min": a count of a unit, maybe with a smaller one after it.
const spanOf = (units: string): string =>
  `${COUNT}[\\s-]+${units}(?:,?\\s+(?:and\\s+)?${COUNT}[\\s-]+${units})?`
// "a week", "about 25 minutes", "for two nights": how long, not when.
const DURATION = new RegExp(
  '^(?:for\\s+)?(?:(?:about|around|almost|nearly|roughly|approx(?:imately)?|over|under|just|only|another|' +
    'more than|less than|at least|at most)\\s+)?' +
    spanOf('(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|nights?|seconds?)') +
    '$',
  'i',
)
// "in 20 minutes", "2 hours ago", "in 2 hours 7 minutes": a time within the day the message was sent, which its
// note already dates.
const WITHIN_THE_DAY = new RegExp(
  '^(?:in|within|for)?\\s*(?:(?:about|around|almost|nearly|roughly|just|another)\\s+)?' +
    `(?:a couple of[\\s-]+(?:seconds?|secs?|minutes?|mins?|hours?|hrs?)|${spanOf('(?:seconds?|secs?|minutes?|mins?|hours?|hrs?)')})` +
    '(?:\\s+(?:ago|from now|later|earlier))?$',
  'i',
)
const PAST_WORD = /\b(?:last|ago|previous|past|yesterday|earlier)\b/i

// "we sat by the lake", "the sun was out": a lower-case three-letter weekday is a word, not a day.
const BARE_ABBREVIATION = /^(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun)$/

function namesADay(result: chrono.ParsedResult): boolean {
  const text = result.text.trim()
  if (BARE_ABBREVIATION.test(text.replace(/[,.;:!?]+$/, ''))) return false
  if (!DAY_WORD.test(text) || DURATION.test(text) || WITHIN_THE_DAY.test(text)) return false
  const start = result.start
  return start.isCertain('day') || start.isCertain('weekday') || RELATIVE_DAY.test(text)
}

// Past-tense verbs: "On Friday I got great news" said on a Thursday means the Friday before, not after.
const PAST_TENSE =
  /\b(?:was|were|did|had|got|went|came|saw|met|made|took|gave|found|told|said|left|lost|won|ran|began|bought|brought|felt|heard|knew|thought|wrote|read|spent|sent|kept|held|drove|flew|rode|ate|drank|swam|sang|wore|threw|caught|taught|fought|built|paid|sold|stood|woke|chose|spoke|forgot|drew|grew|fell|hung|led|slept|struck|froze|stole|hid|dug|fled|meant|dealt|became|overslept|died|\w{3,}ed)\b/i
const FUTURE_TENSE =
  /\b(?:will|'ll|going to|gonna|plan(?:ning)? to|want to|hope to|can't wait|next|upcoming|tomorrow)\b/i

// Done now, for a day to come: "booked it for December 20", "the inspection moved to Friday".
const BOOKED_AHEAD =
  /\b(?:booked|scheduled|rescheduled|reserved|registered|signed up|postponed|(?:moved|pushed(?: back| out)?|delayed|bumped|shifted|slipped|brought forward|changed)\s+(?:\w+\s+)?(?:to|till|until|for)\s+(?:the\s+|next\s+|this\s+)?(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|tomorrow|\d))/i

// "She told me the party is on Saturday", "if you said Thursday, that would be the 19th": the telling is past, what
// was told is not. A reported clause in the present or future, with no past verb of its own, has its own tense.
const TOLD =
  /\b(?:said|says|told|tells|mentioned|wrote|texted|emailed|messaged|heard|thought|asked|promised|confirmed|announced|reminded)\b/i
const PRESENT_OR_FUTURE =
  /\b(?:is|are|am|will|would|can|'re|'ll|starts?|begins?|opens?|closes?|ends?|runs?|due)\b|\b(?:it|that|this|he|she|there)'s\b/i

/** The words whose tense says when things happen: without a reported clause in the present or future. */
function ownClause(sentence: string): string {
  const told = TOLD.exec(sentence)
  if (!told) return sentence
  const reported = sentence.slice(told.index + told[0].length)
  const isReportedNow = PRESENT_OR_FUTURE.test(reported) && !PAST_TENSE.test(reported)
  return isReportedNow ? sentence.slice(0, told.index) : sentence
}

// Where a sentence's clauses part: "I hired Priya, she starts on December 1" has a tense in each.
const CLAUSE_BREAK = /[,;]\s+|\s+(?:and|but|so)\s+(?=(?:i|we|he|she|they|it|the|my|our|his|her|their)\b)/i

/**
 * The clauses whose tense dates the sentence's days: those naming a day, when they have a verb of their own ("she
 * starts on December 1" after "I hired Priya"); else the whole sentence ("On Friday, I got great news").
 */
function datedClauses(sentence: string): string {
  const clauses = sentence.split(CLAUSE_BREAK)
  if (clauses.length === 1) return sentence
  const dated = clauses.filter((clause) => DAY_WORD.test(clause)).join(', ')
  const hasVerb = PAST_TENSE.test(dated) || PRESENT_OR_FUTURE.test(dated) || FUTURE_TENSE.test(dated)
  return hasVerb ? dated : sentence
}

// "I've got an interview on March 25", "she's got a game Friday": having, in the present, not getting.
const HAVE_GOT = /\b(?:i've|we've|you've|they've|he's|she's|i have|we have|has)\s+got\b/gi

// "sorry, I meant Thursday": the day a slip is put right to, not a day gone by ("I meant to call on Monday" is).
const PUT_RIGHT = /\bi meant\b(?!\s+to\b)/gi

/** True when the sentence reports something done ("On Friday I got…") rather than planned. */
export function isPastTense(sentence: string): boolean {
  return (
    PAST_TENSE.test(ownClause(datedClauses(sentence.replace(HAVE_GOT, 'have').replace(PUT_RIGHT, ' ')))) &&
    !FUTURE_TENSE.test(sentence) &&
    !BOOKED_AHEAD.test(sentence)
  )
}

/** False when `text` has no word that can name a day, so no date can be found in it. */
export function mayNameADay(text: string): boolean {
  return DAY_WORD.test(text)
}

interface Reference {
  reference: { instant: Date; timezone: number }
  today: string
}

// The sentences of one message share its time: the zone conversion is done once per message, not per sentence.
let lastReference: { key: string; value: Reference } | null = null

function referenceOf(ts: string, timeZone: string): Reference {
  const key = `${ts} ${timeZone}`
  if (lastReference?.key === key) return lastReference.value
  const instant = new Date(ts)
  const today = localDayOf(instant, timeZone)
  const [year, month, day] = today.split('-').map(Number) as [number, number, number]
  const [hour, minute] = localTimeOf(instant, timeZone).split(':').map(Number) as [number, number]
  const value = {
    reference: { instant: new Date(Date.UTC(year, month - 1, day, hour, minute)), timezone: 0 },
    today,
  }
  lastReference = { key, value }
  return value
}

/**
 * Date mentions that name a day (a bare time like "at 10" or "last year" does not). chrono resolves
 * against the message's local wall time, expressed as UTC so nothing depends on the host's zone. A bare
 * weekday resolves forward in a plan and backward in a report of something done.
 */
/** Longer "sentences" are pastes (logs, lists without full stops): the parser's time grows faster than their length. */
const MAX_PARSE_CHARS = 400
/** Around each day word of a long sentence, this much text either side is parsed. */
const PARSE_MARGIN = 120

/** chrono's results over `sentence`; a long one is parsed only near its day words, indices kept. */
function parseBounded(
  sentence: string,
  reference: chrono.ParsingReference,
  forwardDate: boolean,
): { result: chrono.ParsedResult; index: number }[] {
  if (sentence.length <= MAX_PARSE_CHARS) {
    return parseDates(sentence, reference, { forwardDate }).map((result) => ({ result, index: result.index }))
  }
  const spans: [number, number][] = []
  for (const match of sentence.matchAll(new RegExp(DAY_WORD.source, 'gi'))) {
    const from = Math.max(0, match.index - PARSE_MARGIN)
    const to = Math.min(sentence.length, match.index + match[0].length + PARSE_MARGIN)
    const last = spans.at(-1)
    if (last && from <= last[1]) last[1] = Math.max(last[1], to)
    else spans.push([from, to])
  }
  return spans.flatMap(([from, to]) =>
    parseDates(sentence.slice(from, to), reference, { forwardDate }).map((result) => ({
      result,
      index: result.index + from,
    })),
  )
}

/**
 * "a weekend yoga class", "every weekend", "a relaxing weekend": the word alone names a kind of time, not a
 * day, though chrono reads it as the coming weekend. Only "this/next/last weekend" (which chrono includes in
 * its text) or "the weekend" pins one.
 */
function isGenericWeekend(text: string, before: string): boolean {
  return /^weekend$/i.test(text.trim()) && !/\bthe\s+$/i.test(before)
}

const WEEKDAY_NAME = /\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b/i
// "every Sunday", "each Monday", "on a Tuesday", "another Monday", "Black Friday": a habit, any such day, or a
// holiday's name.
const KIND_OF_WEEKDAY_BEFORE =
  /\b(?:every(?:\s+other)?|each|most|an?|another|black|cyber|good|easter|palm|ash|holy|super)\s+$/i
// "Sunday school", "on Saturday mornings": a kind of thing, or a habit in the plural.
const KIND_OF_WEEKDAY_AFTER = /^(?:s\b|\s+(?:school|mornings|afternoons|evenings|nights)\b)/i

/** A bare weekday that names a kind of day, not one on the calendar. */
function isGenericWeekday(sentence: string, text: string, index: number): boolean {
  const word = WEEKDAY_NAME.exec(text)
  if (!word) return false
  const at = index + word.index
  return (
    KIND_OF_WEEKDAY_BEFORE.test(sentence.slice(0, at)) ||
    KIND_OF_WEEKDAY_AFTER.test(sentence.slice(at + word[0].length))
  )
}

/** A YYYY-MM-DD day moved by whole years (Feb 29 becomes Mar 1 where the year has none). */
function addYears(day: string, years: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  const moved = new Date(Date.UTC(year + years, month - 1, date))
  return moved.toISOString().slice(0, 10)
}

/** Day of the week of a YYYY-MM-DD day, 0 for Sunday. */
const weekdayOf = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay()

/** The Monday of the week `day` is in. */
const mondayOf = (day: string): string => addDays(day, -((weekdayOf(day) + 6) % 7))

const shiftWeek = (span: { day: string; endDay: string | null }, weeks: number) => ({
  day: addDays(span.day, 7 * weeks),
  endDay: span.endDay === null ? null : addDays(span.endDay, 7 * weeks),
})

// "Monday to Friday", "Mon-Fri": two bare weekdays joined into a span.
const WEEKDAY_RANGE = /^(?:from\s+)?\S+\s*(?:-|–|to|till|until|thru|through)\s*\S+$/i

/**
 * "last Monday" and "next weekend" as their speaker may mean them. "last X" is the X gone by; when that X
 * falls in the current week (said on a Tuesday, "last Monday" may be yesterday or eight days ago) it is read
 * either way. "next X", for chrono the X of next week, may be this week's X while that is still to come
 * ("next weekend" said on a Monday). Anything else has one reading.
 */
function relativeWeekReadings(
  text: string,
  span: { day: string; endDay: string | null },
  today: string,
): { day: string; endDay: string | null; otherDay?: { day: string; endDay: string | null } } {
  const word = /^(?:on\s+)?(last|next)\s+(?:weekend|\S+day)$/i.exec(text.trim().replace(/[,.;:!?]+$/, ''))
  if (!word) return span
  if (/^last$/i.test(word[1]!)) {
    const gone = (span.endDay ?? span.day) >= today ? shiftWeek(span, -1) : span
    return gone.day >= mondayOf(today) ? { ...gone, otherDay: shiftWeek(gone, -1) } : gone
  }
  const thisWeeks = shiftWeek(span, -1)
  return thisWeeks.day > today ? { ...span, otherDay: thisWeeks } : span
}

// "on the 14th", "by the 3rd": a day of a month left unsaid. Only after a word that makes it a date ("the 3rd time",
// "the 19th century" and "the 2nd floor" have none), and not followed by a month chrono reads itself.
const ORDINAL_DAY =
  /\b(?:on|by|until|till|til|before|after|from|since|for|(?:mon|tues|wednes|thurs|fri|satur|sun)day|it's|it is|wait,?|meant|make that)\s+(?:the\s+)?([1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b(?!\s+(?:of\b|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|century|floor|grade|time|place|round|try|attempt|birthday|anniversary|day|week|month|year|quarter|term|semester|season|episode|chapter|level|stage|edition|gen|generation|person|party|base|degree|period|inning|hour|minute|lap|row|line|page|step|chance|draft|version|half|night|one))(?:\s*(?:-|–|to|till|until|through|thru)\s*(?:the\s+)?([1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b)?/gi

/** The day `date` of the month `months` away from `day`'s, or null where that month has no such day. */
function dayOfMonth(day: string, months: number, date: number): string | null {
  const [year, month] = day.split('-').map(Number) as [number, number]
  const at = new Date(Date.UTC(year, month - 1 + months, date))
  return at.getUTCDate() === date ? at.toISOString().slice(0, 10) : null
}

/**
 * "on the 14th": the next such day (this month's if it is still to come) in a plan, the last one gone by in a
 * report of something done. Today itself is "today", so said on the 14th it is a month away either way.
 */
function ordinalDayMentions(
  sentence: string,
  today: string,
  isPast: boolean,
  taken: readonly DateMention[],
): DateMention[] {
  const mentions: DateMention[] = []
  for (const match of sentence.matchAll(ORDINAL_DAY)) {
    const index = match.index + match[0].search(/\d|the\b|\b\w+day\b/i)
    if (
      taken.some(
        (mention) => index < mention.index + mention.text.length && mention.index < index + match[0].length,
      )
    )
      continue
    const date = Number(match[1])
    const thisMonths = dayOfMonth(today, 0, date)
    const day = isPast
      ? thisMonths !== null && thisMonths < today
        ? thisMonths
        : dayOfMonth(today, -1, date)
      : thisMonths !== null && thisMonths > today
        ? thisMonths
        : dayOfMonth(today, 1, date)
    // "from the 3rd to the 10th": the end is the first such day from the start on.
    const last = match[2] === undefined ? null : Number(match[2])
    const endDay =
      day === null || last === null ? null : last > date ? dayOfMonth(day, 0, last) : dayOfMonth(day, 1, last)
    if (day !== null)
      mentions.push({ text: sentence.slice(index, match.index + match[0].length), index, day, endDay })
  }
  return mentions
}

// What may come just before a day written "14/3" with no year: a word that dates it, or nothing.
const SLASH_DATE_BEFORE =
  /(?:^|\b(?:on|by|from|until|till|to|before|after|due|for|since|date|dated|and|or|-|–))\s*$/i

// A month named near "the 14th" may be the month it is in ("the flat is booked for March. Sam flies in on the 14th").
const MONTH_NAMED =
  /\b(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b|\b(?:january|february|march|april|june|july|august|september|october|november|december)\b/

// "the haircut's on Saturday now": the "now" of a change, which chrono reads as the day itself; blanked (the same
// length) before parsing.
const NOW_AFTER_DAY = /(?<=\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d(?:st|nd|rd|th))\s+)now\b/gi

/**
 * `context`: the rest of the message the sentence is from. A day of the month said alone is read only when no month
 * is named there or elsewhere in the sentence.
 */
export function findDateMentions(
  sentence: string,
  ts: string,
  timeZone: string,
  context = '',
): DateMention[] {
  // A sentence with no day word cannot name a day: skip the parser (the costly part on a busy day).
  if (!mayNameADay(sentence)) return []
  const { reference, today } = referenceOf(ts, timeZone)
  const mentions: DateMention[] = []
  const isPast = isPastTense(sentence)
  for (const { result, index } of parseBounded(sentence.replace(NOW_AFTER_DAY, '   '), reference, !isPast)) {
    if (!namesADay(result)) continue
    let start = dayOf(result.start)
    let end = result.end ? dayOf(result.end) : null
    const isBareWeekday = result.start.isCertain('weekday') && !result.start.isCertain('day')
    if (isBareWeekday && isGenericWeekday(sentence, result.text, index)) continue
    // "on Saturday 21st": the day of the month says which Saturday (read below, with the other such days).
    const after = sentence.slice(index + result.text.length)
    const isDayOfMonthNext =
      /(?:mon|tues|wednes|thurs|fri|satur|sun)day$/i.test(result.text.trim()) &&
      /^\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b/i.test(after)
    if (isBareWeekday && isDayOfMonthNext) continue
    // "Mon: lentil soup", "Tue – gym": a weekday heading an item of a weekly plan names no week.
    if (isBareWeekday && /^\s*(?:[:–—]|-\s)/.test(after) && /^\W*$/.test(sentence.slice(0, index))) continue
    // "ul. Długa 14/3", "flat 12/4": numbers after a name are an address or a score; "on 14/3" is a day.
    if (/^\d{1,2}[/.]\d{1,2}$/.test(result.text.trim()) && !SLASH_DATE_BEFORE.test(sentence.slice(0, index)))
      continue
    // "I work Monday to Friday", "open Mon-Sat": a span of bare weekdays said of the present is a schedule, which
    // names no week ("I'll be away Monday to Friday" and "I was off Monday to Wednesday" still do).
    const isWeekdaySpan =
      isBareWeekday && result.end?.isCertain('weekday') === true && !result.end.isCertain('day')
    if (isWeekdaySpan && WEEKDAY_RANGE.test(result.text.trim()) && !isPast && !FUTURE_TENSE.test(sentence))
      continue
    const isSince = /\bsince\s+(?:the\s+)?$/i.test(sentence.slice(0, index))
    if (isBareWeekday && (isPast || isSince || PAST_WORD.test(result.text)) && start > today) {
      start = addDays(start, -7)
      end = end === null ? null : addDays(end, -7)
    }
    // "Back in 2019 I moved here on March 3": the year is said elsewhere in the sentence; better no date than a guess.
    const isYearless = result.start.isCertain('month') && !result.start.isCertain('year')
    const elsewhere = sentence.slice(0, index) + sentence.slice(index + result.text.length)
    if (isYearless && /\b(?:19|20)\d{2}\b/.test(elsewhere)) continue
    // chrono gives a month and day the nearer year ("March 3" said in November is next March): a day something
    // was done on is the one gone by. "Slipped to Dec 11" or "moved from Dec 4" is a date still to come.
    const isOnThatDay = /\bon\s+(?:the\s+)?$/i.test(sentence.slice(0, index))
    if (isYearless && ((isPast && isOnThatDay) || isSince) && start > today) {
      start = addYears(start, -1)
      end = end === null ? null : addYears(end, -1)
    }
    if (isGenericWeekend(result.text, sentence.slice(0, index))) continue
    // Said on a Sunday, "this weekend" is the one under way; chrono, reading forward, picks the next one.
    if (/^this\s+weekend\W*$/i.test(result.text.trim()) && weekdayOf(today) === 0) {
      start = addDays(today, -1)
      end = today
    }
    // A weekend is two days: "last weekend" → Saturday → Sunday, whichever of the two chrono picked.
    if (/\bweekend\b/i.test(result.text) && end === null) {
      const weekday = weekdayOf(start)
      if (weekday === 0) start = addDays(start, -1)
      if (weekday === 0 || weekday === 6) end = addDays(start, 1)
    }
    let reading = relativeWeekReadings(result.text, { day: start, endDay: end }, today)
    // "I met her on Friday" said on a Friday is the Friday before: today would be "today". "I'm seeing her on
    // Friday" said on a Friday may be later today or the Friday after.
    const isTodaysWeekday =
      isBareWeekday && end === null && reading.day === today && !/\b(?:this|next|last)\b/i.test(result.text)
    if (isTodaysWeekday && (isPast || isSince)) reading = shiftWeek(reading, -1)
    else if (isTodaysWeekday) reading = { ...reading, otherDay: shiftWeek(reading, 1) }
    // A past word that still resolves forward ("last weekend" read as the next one) is dropped, not guessed.
    if (PAST_WORD.test(result.text) && reading.day > today) continue
    mentions.push({ text: result.text.replace(/[\s,.;:!?]+$/, ''), index, ...reading })
  }
  // Most sentences have no "14th": the costlier patterns run only on those that do.
  const hasOrdinal = /\d(?:st|nd|rd|th)\b/i.test(sentence)
  const isMonthNamed =
    hasOrdinal && (MONTH_NAMED.test(sentence.replace(ORDINAL_DAY, '')) || MONTH_NAMED.test(context))
  const ordinals = hasOrdinal && !isMonthNamed ? ordinalDayMentions(sentence, today, isPast, mentions) : []
  return ordinals.length === 0 ? mentions : [...mentions, ...ordinals].sort((a, b) => a.index - b.index)
}

const spanText = (span: { day: string; endDay: string | null }): string =>
  span.endDay && span.endDay !== span.day ? `${span.day} → ${span.endDay}` : span.day

/** The day or days a mention names, as notes write them: "2026-11-27", "2026-12-05 → 2026-12-06", "A or B". */
export function daysOf(mention: DateMention): string {
  if (!mention.otherDay) return spanText(mention)
  const [first, second] = [mention, mention.otherDay].sort((a, b) => (a.day < b.day ? -1 : 1))
  return `${spanText(first!)} or ${spanText(second!)}`
}

/**
 * The sentence with each mention followed by its absolute day — "visiting next Friday (2026-11-27)" — so
 * memory never holds a relative date. Mentions already written as ISO days are left alone.
 */
export function annotateDates(sentence: string, mentions: readonly DateMention[]): string {
  let out = ''
  let at = 0
  for (const mention of [...mentions].sort((a, b) => a.index - b.index)) {
    if (mention.index < at) continue
    // "Tomorrow's gonna be…": the day goes after the possessive, not between the word and its 's.
    const possessive = /^['’]s\b/.exec(sentence.slice(mention.index + mention.text.length))
    const end = mention.index + mention.text.length + (possessive ? 2 : 0)
    out += sentence.slice(at, end)
    const days = daysOf(mention)
    const isWrittenOut = /\b\d{4}-\d{2}-\d{2}\b/.test(mention.text)
    if (!isWrittenOut) out += ` (${days})`
    at = end
  }
  return out + sentence.slice(at)
}
