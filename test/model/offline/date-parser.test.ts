// Skipping the date parsers a text cannot match must change nothing: the same results as chrono's full casual
// parser, over sentences that use every kind of date it knows, mixed with words that only look like them.
import * as chrono from 'chrono-node'
import { describe, expect, it } from 'vitest'
import { parserCountFor, parseDates } from '../../../src/model/offline/date-parser.js'
import { Prng } from '../../../src/sample/prng.js'

const DATES = [
  'next Friday',
  'last weekend',
  'this weekend',
  'on Sat',
  'Tuesday',
  'the weekday after',
  'thurs.',
  'Dec 4 to Dec 11',
  'from December 4 - 11',
  'the 4th of July',
  'twenty-first of March 2027',
  'March 2026',
  'in May',
  'Sept. 3rd',
  'on 12 Aug',
  'Nov 2025',
  '2026-05-01',
  '2026/05/01',
  '2026-05-01T10:30:00Z',
  '12/25',
  '25/12/2026',
  '3/2027',
  '5.6.2026',
  'at 10',
  'at 10am',
  '9:30 p.m.',
  "7 o'clock",
  '18:45',
  'from 3 to 5pm',
  'today',
  'tonight',
  'tomorrow',
  'tmrw',
  'overmorrow',
  'yesterday',
  'last night',
  'now',
  'this morning',
  'in the afternoon',
  'at noon',
  'midnight',
  'this evening',
  'end of the month',
  'last day of month',
  'this week',
  'last month',
  'next year',
  'past quarter',
  'after this week',
  '3 days ago',
  'two weeks ago',
  'a couple of days earlier',
  'half an hour before',
  'five minutes later',
  'a few days after',
  '2 years from now',
  'in two weeks',
  'within an hour',
  'for 3 days',
  'in about 10 minutes',
  '+2 days',
  '-1 week',
  'next 3 months',
  'last 2 years',
  'the day after tomorrow',
  '2027 BE',
  'AD 2026 Jan',
  'the 5th',
  'on the 31st',
]
// Words that hold a trigger without being a date: they must not change what is found either.
const WORDS = [
  'marathon',
  'Monday-ish',
  'sunny',
  'satisfied',
  'wedding',
  'thunder',
  'friend',
  'Maya',
  'printer',
  'inside',
  'format',
  'about',
  'without',
  'Chicago',
  'before',
  'mayor',
  'junior',
  'octopus',
  'decimal',
  'nightly',
  'monthly',
  'thistle',
  'lastly',
  'pasta',
  'nextdoor',
  'afterwards',
  'version 2',
  'room 101',
  '3 kids',
  'a',
  'the',
  'we',
  'went',
  'will',
  'ferry',
  'to',
  'Porto',
  'and',
  'then',
  'visa',
  'ok',
  '!',
  ',',
  '(',
  ')',
  '-',
]

function sentences(count: number, seed: number): string[] {
  const prng = new Prng(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(prng.next() * list.length)]!
  return Array.from({ length: count }, () => {
    const parts: string[] = []
    const size = 3 + Math.floor(prng.next() * 14)
    for (let i = 0; i < size; i++) parts.push(prng.next() < 0.3 ? pick(DATES) : pick(WORDS))
    return parts.join(' ')
  })
}

const shape = (results: chrono.ParsedResult[]): unknown[] =>
  results.map((result) => [
    result.index,
    result.text,
    result.start.date().toISOString(),
    result.end?.date().toISOString() ?? null,
    ['day', 'weekday', 'month', 'year', 'hour'].map((part) =>
      result.start.isCertain(part as chrono.Component),
    ),
  ])

describe('parseDates', () => {
  it('finds exactly what chrono finds with every parser, forward and backward', () => {
    const reference = { instant: new Date('2026-11-20T15:30:00Z'), timezone: 0 }
    const texts = [
      ...DATES,
      ...DATES.map((date) => `We said ${date}, then went home.`),
      ...sentences(3000, 7),
    ]
    let found = 0
    for (const text of texts) {
      for (const forwardDate of [true, false]) {
        const expected = shape(chrono.casual.parse(text, reference, { forwardDate }))
        expect(shape(parseDates(text, reference, { forwardDate })), text).toEqual(expected)
        found += expected.length
      }
    }
    // The corpus really is full of dates.
    expect(found).toBeGreaterThan(texts.length)
  })

  it('reads chat\'s "Tues" and "Weds", which chrono\'s dictionary lacks, keeping the text as written', () => {
    const reference = { instant: new Date('2026-11-20T15:30:00Z'), timezone: 0 } // a Friday
    const read = (text: string) =>
      parseDates(text, reference, { forwardDate: true }).map((result) => [
        result.index,
        result.text,
        result.start.date().toISOString().slice(0, 10),
      ])
    expect(chrono.casual.parse('dentist on Tues', reference, { forwardDate: true })).toEqual([])
    expect(read('dentist on Tues')).toEqual([[8, 'on Tues', '2026-11-24']])
    expect(read('exam weds, then tues.')).toEqual([
      [5, 'weds,', '2026-11-25'], // chrono keeps a weekday's comma, as in "wednesday,"
      [16, 'tues', '2026-11-24'],
    ])
    // Only the whole word: "Tuesday", "Wedstone" and "statues" read as before.
    expect(read('statues at Wedstone on Tuesday')).toEqual([[20, 'on Tuesday', '2026-11-24']])
  })

  it('runs only the parsers whose words a text holds', () => {
    const all = chrono.casual.parsers.length
    expect(parserCountFor('we sat by the lake and talked')).toBeLessThan(all / 2)
    expect(
      parserCountFor(
        '2026-05-01 at 10am next Monday in March, 3 days ago, tonight, end of month, a week later',
      ),
    ).toBe(all)
  })
})
