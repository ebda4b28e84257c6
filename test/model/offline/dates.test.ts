import { describe, expect, it } from 'vitest'
import { annotateDates, daysOf, findDateMentions } from '../../../src/model/offline/dates.js'

describe('findDateMentions', () => {
  it('resolves "tomorrow" against the local day, not the UTC one', () => {
    // 23:30 UTC on Nov 19 is already Nov 20 in Tokyo and still Nov 19 in Los Angeles.
    const ts = '2026-11-19T23:30:00.000Z'
    expect(findDateMentions('call me tomorrow', ts, 'Asia/Tokyo')[0]?.day).toBe('2026-11-21')
    expect(findDateMentions('call me tomorrow', ts, 'America/Los_Angeles')[0]?.day).toBe('2026-11-20')
  })

  it('reads weekdays forward, explicit dates and ranges', () => {
    const ts = '2026-11-19T10:00:00.000Z' // a Thursday
    expect(findDateMentions('next Friday', ts, 'UTC')[0]?.day).toBe('2026-11-27')
    expect(findDateMentions('on Saturday', ts, 'UTC')[0]?.day).toBe('2026-11-21')
    expect(findDateMentions('ships 2027-01-15', ts, 'UTC')[0]?.day).toBe('2027-01-15')
    expect(findDateMentions('from Dec 4 to Dec 11', ts, 'UTC')[0]).toMatchObject({
      day: '2026-12-04',
      endDay: '2026-12-11',
    })
  })

  it('reads a bare weekday backwards when the sentence reports something done', () => {
    const ts = '2026-11-19T10:00:00.000Z' // a Thursday
    expect(findDateMentions('On Friday, I got great news', ts, 'UTC')[0]?.day).toBe('2026-11-13')
    expect(findDateMentions('I went there last Saturday', ts, 'UTC')[0]?.day).toBe('2026-11-14')
    expect(findDateMentions('On Friday I will get the results', ts, 'UTC')[0]?.day).toBe('2026-11-20')
    // Irregular past forms report something done as much as "-ed" ones do.
    expect(findDateMentions('We drove up to Braga on Saturday', ts, 'UTC')[0]?.day).toBe('2026-11-14')
    expect(findDateMentions('I flew back on Monday', ts, 'UTC')[0]?.day).toBe('2026-11-16')
  })

  it('takes the tense of a reported clause from the clause, not from the telling', () => {
    const ts = '2026-11-19T10:00:00.000Z' // a Thursday
    expect(findDateMentions('She told me the party is on Saturday', ts, 'UTC')[0]?.day).toBe('2026-11-21')
    expect(findDateMentions('He said the meeting is on Monday', ts, 'UTC')[0]?.day).toBe('2026-11-23')
    // What was told in the past tense, and a telling with no reported clause, still look back.
    expect(findDateMentions('She said on Friday she was sick', ts, 'UTC')[0]?.day).toBe('2026-11-13')
    expect(findDateMentions('I told him about it on Friday', ts, 'UTC')[0]?.day).toBe('2026-11-13')
  })

  it('reads "on the 14th" as the next such day in a plan and the last one in a report', () => {
    const ts = '2026-11-19T10:00:00.000Z'
    expect(findDateMentions("I'm flying to Lisbon on the 14th", ts, 'UTC')[0]).toMatchObject({
      text: 'the 14th',
      day: '2026-12-14',
    })
    expect(findDateMentions("I'm flying to Lisbon on the 24th", ts, 'UTC')[0]?.day).toBe('2026-11-24')
    expect(findDateMentions('we met on the 3rd', ts, 'UTC')[0]?.day).toBe('2026-11-03')
    expect(findDateMentions('rent is due by the 31st', ts, 'UTC')[0]?.day).toBe('2026-12-31')
    // An ordinal that counts, or names a floor or century, is no day.
    expect(findDateMentions('for the 3rd time', ts, 'UTC')).toEqual([])
    expect(findDateMentions('on the 2nd floor', ts, 'UTC')).toEqual([])
    expect(findDateMentions('since the 2nd of May', ts, 'UTC')[0]?.day).toBe('2026-05-02')
    expect(findDateMentions('see you on 12th', ts, 'UTC')[0]).toMatchObject({
      text: '12th',
      day: '2026-12-12',
    })
    expect(findDateMentions('on the 3rd day we left', ts, 'UTC')).toEqual([])
    // With a month named in the message, the 14th may be that month's: no guess.
    expect(findDateMentions('Sam flies in on the 14th', ts, 'UTC', 'Booked the flat for March.')).toEqual([])
    expect(findDateMentions('I may fly on the 14th', ts, 'UTC')[0]?.day).toBe('2026-12-14')
    // A weekday with its day of the month is that day, not the weekday's next date.
    expect(findDateMentions('dinner is on Saturday 28th at 7pm', ts, 'UTC')).toMatchObject([
      { text: 'Saturday 28th', day: '2026-11-28' },
    ])
    expect(findDateMentions('I sat 3rd in the exam', ts, 'UTC')).toEqual([])
    // "next weekend, the 21st": the weekend stays; only a weekday's own day of the month replaces it.
    expect(findDateMentions('visiting next weekend, the 28th', ts, 'UTC')[0]).toMatchObject({
      text: 'next weekend',
    })
  })

  it("reads no day in a weekly plan's weekday headings or in an address's numbers", () => {
    const ts = '2026-11-19T10:00:00.000Z'
    expect(findDateMentions('Mon: lentil soup', ts, 'UTC')).toEqual([])
    expect(findDateMentions('Tue - veggie stir-fry', ts, 'UTC')).toEqual([])
    expect(findDateMentions('ul. Długa 14/3, 80-827 Gdańsk', ts, 'UTC')).toEqual([])
    expect(findDateMentions('the deadline is on 14/3', ts, 'UTC')[0]?.day).toBe('2027-03-14')
    expect(findDateMentions("See you Monday - can't wait", ts, 'UTC')[0]?.day).toBe('2026-11-23')
  })

  it('names no day for a span of minutes or hours: the message is already dated', () => {
    const ts = '2026-11-19T10:00:00.000Z'
    expect(findDateMentions('about 50 minutes by train', ts, 'UTC')).toEqual([])
    expect(findDateMentions('in 2 hours I leave', ts, 'UTC')).toEqual([])
    expect(findDateMentions('it took nearly three days', ts, 'UTC')).toEqual([])
    expect(findDateMentions('finished the race in 2 hours 7 minutes', ts, 'UTC')).toEqual([])
    expect(findDateMentions('we talked for 2 hours', ts, 'UTC')).toEqual([])
    expect(findDateMentions("I'm in Paris for a week", ts, 'UTC')).toEqual([])
    expect(findDateMentions('see you in 2 days', ts, 'UTC')[0]?.day).toBe('2026-11-21')
  })

  it('reads forward the day a thing done now is for: booked for it, moved to it', () => {
    const ts = '2026-11-19T10:00:00.000Z' // a Thursday
    expect(findDateMentions('I booked a table for Friday', ts, 'UTC')[0]?.day).toBe('2026-11-20')
    expect(findDateMentions('Booked it: flight KL1021 on December 20', ts, 'UTC')[0]?.day).toBe('2026-12-20')
    expect(findDateMentions('The inspection moved to Wednesday', ts, 'UTC')[0]?.day).toBe('2026-11-25')
    // Moving house is no rescheduling: the weekday is still the one gone by.
    expect(findDateMentions('I moved to Leeds on Wednesday', ts, 'UTC')[0]?.day).toBe('2026-11-18')
  })

  it.each([
    'a week in Madeira',
    'took 31 minutes',
    'staying two nights',
    'meeting at 10',
    "so that's us now",
    'last year',
    'they get enough sun.',
    'great for soaking up the sun!',
  ])('names no day in "%s"', (text) => {
    expect(findDateMentions(text, '2026-11-19T10:00:00.000Z', 'UTC')).toEqual([])
  })
})

describe('days that are no one day', () => {
  const ts = '2026-11-19T10:00:00.000Z' // a Thursday

  // A weekday as a habit, a kind of thing or a holiday's name points at no calendar day.
  it.each([
    'Every Sunday we go for a walk.',
    'We go hiking every Saturday morning.',
    'I have a class every other Friday.',
    'Each Monday starts with a stand-up.',
    'I was born on a Monday.',
    'I teach Sunday school at my church.',
    'I usually go running on Saturday mornings.',
    'Black Friday sales were crazy.',
    'We spent Easter Sunday with the family.',
  ])('names no day in "%s"', (text) => {
    expect(findDateMentions(text, ts, 'UTC')).toEqual([])
  })

  // A span of weekdays said of the present is a schedule: it names no week.
  it.each([
    'I work Monday to Friday.',
    'I work from Monday through Friday at the clinic.',
    'The gym is open Mon-Sat.',
  ])('names no day in the schedule "%s"', (text) => {
    expect(findDateMentions(text, ts, 'UTC')).toEqual([])
  })

  it('still dates a span of weekdays said of a plan', () => {
    expect(findDateMentions("I'll be in Paris from Monday to Friday.", ts, 'UTC')[0]).toMatchObject({
      day: '2026-11-23',
      endDay: '2026-11-27',
    })
  })

  it('still names the day of "on Sunday" and "Saturday morning"', () => {
    expect(findDateMentions('We meet on Sunday.', ts, 'UTC')[0]?.day).toBe('2026-11-22')
    expect(findDateMentions('I fly out Saturday morning.', ts, 'UTC')[0]?.day).toBe('2026-11-21')
  })
})

describe('days in the past', () => {
  const ts = '2026-11-19T10:00:00.000Z' // a Thursday

  it('reads a month and day without a year backwards in a report of something done', () => {
    // chrono picks the nearer year, and March 3 next year is nearer than the March 3 that has passed.
    expect(findDateMentions('I moved here on March 3.', ts, 'UTC')[0]?.day).toBe('2026-03-03')
    expect(findDateMentions('The launch is on March 3.', ts, 'UTC')[0]?.day).toBe('2027-03-03')
    expect(findDateMentions('The launch slipped to March 3.', ts, 'UTC')[0]?.day).toBe('2027-03-03')
    expect(findDateMentions('We married on March 3, 2019.', ts, 'UTC')[0]?.day).toBe('2019-03-03')
    // A year said apart from the day: better no date than a wrong one.
    expect(findDateMentions('Back in 2019 I moved here on March 3.', ts, 'UTC')).toEqual([])
  })

  it('reads a day put right ("I meant Thursday") forward, and "I meant to" as the past', () => {
    expect(findDateMentions('sorry, I meant Thursday', '2026-11-17T09:00:00.000Z', 'UTC')[0]?.day).toBe(
      '2026-11-19',
    )
    expect(findDateMentions('I meant to call on Monday.', ts, 'UTC')[0]?.day).toBe('2026-11-16')
  })

  it('reads the day of "on Saturday now", not now, and a bare day of the month after "wait" or "it\'s"', () => {
    expect(findDateMentions("the haircut's on Saturday now, not Friday", ts, 'UTC')[0]).toMatchObject({
      text: 'on Saturday',
      day: '2026-11-21',
    })
    expect(findDateMentions('no wait, the 24th', ts, 'UTC')[0]?.day).toBe('2026-11-24')
    expect(findDateMentions("correction, it's the 24th", ts, 'UTC')[0]?.day).toBe('2026-11-24')
    expect(findDateMentions("it's the 4th time I've asked", ts, 'UTC')).toEqual([])
  })

  it('reads "since Monday" as the Monday gone', () => {
    expect(findDateMentions('I have been sober since Monday.', ts, 'UTC')[0]?.day).toBe('2026-11-16')
  })
})

describe('weekends', () => {
  const ts = '2026-07-15T10:00:00.000Z' // a Wednesday

  it.each(['this weekend', 'over the weekend', 'on the weekend'])('reads "%s" as two days', (text) => {
    const [mention] = findDateMentions(`I'm hiking ${text}.`, ts, 'UTC')
    expect(mention).toMatchObject({ day: '2026-07-18', endDay: '2026-07-19' })
  })

  // Said on a Saturday or a Sunday, "this weekend" is the one under way, not the next (chrono reads it forward).
  it.each([
    ['2026-07-18T10:00:00.000Z', "I'm relaxing this weekend with a long walk."],
    ['2026-07-19T10:00:00.000Z', 'This weekend, I am planning to check out a new cafe.'],
    ['2026-07-19T10:00:00.000Z', 'I went to the lake this weekend.'],
  ])('reads "this weekend" said at the weekend (%s) as that weekend', (at, text) => {
    expect(findDateMentions(text, at, 'UTC')[0]).toMatchObject({ day: '2026-07-18', endDay: '2026-07-19' })
  })

  it('still reads "next weekend" said on a Saturday as the one after', () => {
    const [mention] = findDateMentions('We fly out next weekend.', '2026-07-18T10:00:00.000Z', 'UTC')
    expect(mention).toMatchObject({ day: '2026-07-25', endDay: '2026-07-26' })
  })

  it.each([
    'I started a weekend yoga class with a colleague.',
    'Every weekend we go to the market.',
    'We had a relaxing weekend at the lake.',
    'Any weekend works for me.',
  ])('names no day in "%s"', (text) => {
    expect(findDateMentions(text, ts, 'UTC')).toEqual([])
  })
})

// "last Monday" said on a Tuesday may be yesterday or eight days ago; "next weekend" said on a Monday may be the
// coming one or the one after. Both readings are kept, so no single day is asserted.
describe('relative weekdays with two readings', () => {
  const tuesday = '2026-11-24T10:00:00.000Z'
  const monday = '2026-11-23T10:00:00.000Z'

  it.each([
    [tuesday, 'Last Monday I went hiking.', '2026-11-16 or 2026-11-23'],
    [monday, 'Next weekend we go camping.', '2026-11-28 → 2026-11-29 or 2026-12-05 → 2026-12-06'],
    [monday, 'I start next Friday.', '2026-11-27 or 2026-12-04'],
  ])('said at %s, "%s" names both days', (at, text, days) => {
    const mentions = findDateMentions(text, at, 'UTC')
    expect(mentions).toHaveLength(1)
    expect(daysOf(mentions[0]!)).toBe(days)
    expect(annotateDates(text, mentions)).toContain(`(${days})`)
  })

  it.each([
    [tuesday, 'I went hiking last Friday.', '2026-11-20'], // the Friday of last week: no nearer one has passed
    [monday, 'I saw her last weekend.', '2026-11-21 → 2026-11-22'],
    [monday, 'I start next Monday.', '2026-11-30'], // this week's Monday is today
    ['2026-11-28T10:00:00.000Z', 'We fly out next weekend.', '2026-12-05 → 2026-12-06'],
  ])('said at %s, "%s" names one day', (at, text, days) => {
    const [mention] = findDateMentions(text, at, 'UTC')
    expect(mention?.otherDay).toBeUndefined()
    expect(daysOf(mention!)).toBe(days)
  })
})

// Said on a Friday, a bare "Friday" is not today (that would be "today"): the one gone by in a report, and today or
// the next one in a plan.
describe('a bare weekday said on that weekday', () => {
  const friday = '2026-11-27T10:00:00.000Z'

  it('is the one a week before in a report of something done', () => {
    expect(daysOf(findDateMentions('I met her on Friday.', friday, 'UTC')[0]!)).toBe('2026-11-20')
  })

  it('is today or a week on in a plan', () => {
    expect(daysOf(findDateMentions("I'm meeting her on Friday.", friday, 'UTC')[0]!)).toBe(
      '2026-11-27 or 2026-12-04',
    )
  })
})

describe('annotateDates', () => {
  it('adds the absolute day after each mention and leaves ISO days alone', () => {
    const text = 'Lena visits on Friday, the demo is 2026-12-01.'
    const mentions = findDateMentions(text, '2026-11-19T10:00:00.000Z', 'UTC')
    expect(annotateDates(text, mentions)).toBe('Lena visits on Friday (2026-11-20), the demo is 2026-12-01.')
  })

  it('puts the day after a possessive, not inside it', () => {
    const text = "Tomorrow's gonna be an awesome night."
    const mentions = findDateMentions(text, '2026-10-23T20:00:00.000Z', 'UTC')
    expect(annotateDates(text, mentions)).toBe("Tomorrow's (2026-10-24) gonna be an awesome night.")
  })
})
