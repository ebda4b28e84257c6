// chrono's casual English parser, run with only the parsers that can match the text. Each parser's pattern needs
// some word or character (a digit, a month name, "ago", ...): when the text has none of them the pattern cannot
// match, so leaving that parser out gives exactly the same results, and most sentences need only a few of the
// eighteen. A parser not named below (one a newer chrono adds) always runs.
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
// A set is a bit per distinct need: with more needs than bits, every parser runs.
const TRIGGERS = [...new Set(Object.values(NEEDS))]
const needOf = CASUAL.parsers.map((parser) => {
  const need = NEEDS[parser.constructor.name]
  return need === undefined || TRIGGERS.length > 30 ? -1 : TRIGGERS.indexOf(need)
})
// One parser per combination of needs met; a year of messages meets a few dozen.
const byMet = new Map<number, chrono.Chrono>()

function parserFor(text: string): chrono.Chrono {
  let met = 0
  for (let at = 0; at < TRIGGERS.length; at++) if (TRIGGERS[at]!.test(text)) met |= 1 << at
  let parser = byMet.get(met)
  if (parser === undefined) {
    const parsers = CASUAL.parsers.filter((_, at) => needOf[at] === -1 || (met & (1 << needOf[at]!)) !== 0)
    parser = new chrono.Chrono({ parsers, refiners: CASUAL.refiners })
    byMet.set(met, parser)
  }
  return parser
}

// "Tues", "Weds": chat's weekday abbreviations that chrono's dictionary lacks. Each is read as the spelling chrono
// knows with a full stop in place of its last letter ("Tue."), the same length, so every index stays where it was.
const CHAT_WEEKDAY = /\b(?:tues|weds)\b/gi
const asChronoSpells = (text: string): string => text.replace(CHAT_WEEKDAY, (word) => `${word.slice(0, 3)}.`)

/** The same results as `chrono.parse(text, reference, option)`, with chat's weekday abbreviations read too. */
export function parseDates(
  text: string,
  reference: chrono.ParsingReference,
  option: chrono.ParsingOption,
): chrono.ParsedResult[] {
  const spelled = asChronoSpells(text)
  const results = parserFor(spelled).parse(spelled, reference, option)
  if (spelled === text) return results
  // chrono's results are its own objects (typed read-only for callers); the text is set back to what was written.
  return results.map((result) =>
    Object.assign(result, { text: text.slice(result.index, result.index + result.text.length) }),
  )
}

/** How many of chrono's parsers run on `text`. */
export function parserCountFor(text: string): number {
  return parserFor(text).parsers.length
}
