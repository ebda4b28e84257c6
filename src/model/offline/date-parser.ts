// chrono's casual English parser, run with only the parsers that can match the text. Each parser's pattern needs
// some word or character (a digit, a month name, "ago", ...): when the text has none of them the pattern cannot
// match, so leaving that parser out gives exactly the same results, and most sentences need only a few of the
// eighteen. Parsers found in neither list below (a newer chrono) always run.
import * as chrono from 'chrono-node'

const DIGIT = /\d/
const MONTH = /jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/i

/** What each parser's pattern cannot match without (case-insensitive, anywhere in the text). */
const NEEDS: Readonly<Record<string, RegExp>> = {
  ENYearMonthDayParser: DIGIT,
  ISOFormatParser: DIGIT,
  SlashDateFormatParser: DIGIT,
  ENSlashMonthFormatParser: DIGIT,
  ENTimeExpressionParser: DIGIT,
  ENYearMonthNameParser: DIGIT,
  ENMonthNameLittleEndianParser: MONTH,
  ENMonthNameMiddleEndianParser: MONTH,
  ENMonthNameParser: MONTH,
  ENWeekdayParser: /sun|mon|tue|wed|thu|fri|sat|week/i,
  ENTimeUnitWithinFormatParser: /in|for/i,
  ENTimeUnitAgoFormatParser: /ago|before|earlier/i,
  ENTimeUnitLaterFormatParser: /later|after|now|henceforth|forward|out/i,
  ENCasualDateParser: /now|today|tonight|tomorrow|overmorrow|tmr|yesterday|last/i,
  ENCasualTimeParser: /morning|noon|evening|night|midday/i,
  ENEndOfCurrentMonthParser: /month/i,
  ENRelativeDateFormatParser: /this|last|past|next|after/i,
  ENTimeUnitCasualRelativeFormatParser: /this|last|past|next|after|\+|-/i,
}

const CASUAL = chrono.casual
// A set is a bit per parser: with more parsers than bits, every parser runs.
const needs = CASUAL.parsers.map((parser) =>
  CASUAL.parsers.length > 30 ? null : (NEEDS[parser.constructor.name] ?? null),
)
// One parser set per combination of needs met; a year of messages meets a few dozen.
const bySet = new Map<number, chrono.Chrono>()

function parserFor(text: string): chrono.Chrono {
  let set = 0
  const met = new Map<RegExp, boolean>()
  needs.forEach((need, at) => {
    if (need === null) {
      set |= 1 << at
      return
    }
    let isMet = met.get(need)
    if (isMet === undefined) {
      isMet = need.test(text)
      met.set(need, isMet)
    }
    if (isMet) set |= 1 << at
  })
  let parser = bySet.get(set)
  if (parser === undefined) {
    const parsers = CASUAL.parsers.filter((_, at) => (set & (1 << at)) !== 0)
    parser = new chrono.Chrono({ parsers, refiners: CASUAL.refiners })
    bySet.set(set, parser)
  }
  return parser
}

/** The same results as `chrono.parse(text, reference, option)`. */
export function parseDates(
  text: string,
  reference: chrono.ParsingReference,
  option: chrono.ParsingOption,
): chrono.ParsedResult[] {
  return parserFor(text).parse(text, reference, option)
}

/** How many of chrono's parsers run on `text`. */
export function parserCountFor(text: string): number {
  return parserFor(text).parsers.length
}
