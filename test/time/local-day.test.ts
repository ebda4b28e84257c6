import { describe, expect, it } from 'vitest'
import {
  addDays,
  canBeHostZone,
  dayWindow,
  isValidTimeZone,
  localDayOf,
  localTimeOf,
  longDateTitle,
  setHostZone,
  startOfLocalDay,
} from '../../src/time/local-day.js'

describe('local days', () => {
  it('puts an instant on different days in UTC and Los Angeles near midnight', () => {
    const instant = new Date('2026-11-21T05:30:00Z')
    expect(localDayOf(instant, 'UTC')).toBe('2026-11-21')
    expect(localDayOf(instant, 'America/Los_Angeles')).toBe('2026-11-20')
  })

  it('finds the start of a local day across the DST change', () => {
    expect(startOfLocalDay('2026-03-08', 'America/Los_Angeles').toISOString()).toBe(
      '2026-03-08T08:00:00.000Z',
    )
    expect(startOfLocalDay('2026-03-09', 'America/Los_Angeles').toISOString()).toBe(
      '2026-03-09T07:00:00.000Z',
    )
    expect(startOfLocalDay('2026-11-23', 'Asia/Kolkata').toISOString()).toBe('2026-11-22T18:30:00.000Z')
  })

  it('starts a day at the first existing instant when midnight is skipped', () => {
    // Santiago skips 00:00–01:00 on its spring-forward day.
    const start = startOfLocalDay('2026-09-06', 'America/Santiago')
    expect(localDayOf(start, 'America/Santiago')).toBe('2026-09-06')
    expect(localDayOf(new Date(start.getTime() - 1000), 'America/Santiago')).toBe('2026-09-05')
  })

  it('builds an N-day window ending today', () => {
    const window = dayWindow(new Date('2026-11-23T12:00:00Z'), 3, 'UTC')
    expect(window.days).toEqual(['2026-11-21', '2026-11-22', '2026-11-23'])
    expect(window.start.toISOString()).toBe('2026-11-21T00:00:00.000Z')
    expect(window.end.toISOString()).toBe('2026-11-24T00:00:00.000Z')
    expect(dayWindow(new Date('2026-11-23T12:00:00Z'), 0, 'UTC').days).toEqual(['2026-11-23'])
  })

  it('moves across month and year ends and titles days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(longDateTitle('2026-11-23')).toBe('Monday, November 23, 2026')
  })
})

describe('local days and times from cached quarter-hour offsets', () => {
  // What Intl says, formatted instant by instant: the reference the cached offsets must agree with.
  function formatted(instant: Date, timeZone: string): string {
    const format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
    const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]))
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`
  }

  it.each([
    ['Europe/Lisbon', '2026-03-29T00:00:00Z'],
    ['America/New_York', '2026-11-01T04:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-04T14:00:00Z'],
    ['Asia/Kathmandu', '2026-06-01T00:00:00Z'],
    ['Pacific/Chatham', '2026-04-04T13:00:00Z'],
    ['Europe/Amsterdam', '1920-01-01T00:00:00Z'],
  ])('agree with Intl in %s, every 7 minutes 13 seconds across %s', (timeZone, around) => {
    const start = Date.parse(around) - 6 * 3_600_000
    for (let ms = start; ms < start + 12 * 3_600_000; ms += 433_000) {
      const instant = new Date(ms)
      expect(`${localDayOf(instant, timeZone)} ${localTimeOf(instant, timeZone)}`).toBe(
        formatted(instant, timeZone),
      )
    }
  })
})

describe('UTC without Intl, and zone names', () => {
  it('gives UTC days and times from the instant itself, the same as Intl, for UTC and Etc/UTC', () => {
    const format = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'UTC',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
    for (let ms = Date.UTC(1899, 11, 31, 23); ms < Date.UTC(2100, 0, 1); ms += 86_400_000 * 37.3 + 59_000) {
      const instant = new Date(ms)
      const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]))
      const expected = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`
      for (const zone of ['UTC', 'Etc/UTC'])
        expect(`${localDayOf(instant, zone)} ${localTimeOf(instant, zone)}`).toBe(expected)
    }
    expect(() => localDayOf(new Date(NaN), 'UTC')).toThrow(RangeError)
  })

  it('knows a zone name exactly when Intl.DateTimeFormat accepts it', () => {
    const names = [
      'UTC',
      'Etc/UTC',
      'utc',
      'Europe/Berlin',
      'europe/berlin',
      'Asia/Kolkata',
      'Asia/Calcutta',
      'US/Eastern',
      'GMT',
      'Etc/GMT+5',
      'EST5EDT',
      'Nowhere/City',
      'Europe/Berlin ',
      '',
      '+01:00',
    ]
    for (const name of names) {
      let accepted = true
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: name })
      } catch {
        accepted = false
      }
      expect(isValidTimeZone(name), name).toBe(accepted)
    }
  })
})

describe('wall clocks in the host zone (TZ set to it), from Date instead of Intl', () => {
  const ZONES = [
    ['Europe/Berlin', '2026-03-29T01:00:00Z'],
    ['America/New_York', '2026-11-01T06:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
    ['America/Santiago', '2026-09-06T04:00:00Z'],
    ['Asia/Calcutta', '2026-06-01T00:00:00Z'],
    ['Pacific/Chatham', '2026-04-04T14:00:00Z'],
    ['Europe/Amsterdam', '1920-01-01T00:00:00Z'],
  ] as const

  function formatted(instant: Date, timeZone: string): string {
    const format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
    const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]))
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`
  }

  it.each(ZONES)(
    'agree with Intl in %s around %s and across a year, days starting where Intl says',
    (zone, around) => {
      const saved = process.env.TZ
      process.env.TZ = zone
      setHostZone(zone)
      try {
        expect(canBeHostZone(zone)).toBe(true)
        const start = Date.parse(around) - 6 * 3_600_000
        const instants: number[] = []
        for (let ms = start; ms < start + 12 * 3_600_000; ms += 433_000) instants.push(ms)
        for (let ms = start; ms < start + 366 * 86_400_000; ms += 86_400_000 / 7 + 1_000) instants.push(ms)
        for (const ms of instants) {
          const instant = new Date(ms)
          expect(`${localDayOf(instant, zone)} ${localTimeOf(instant, zone)}`).toBe(formatted(instant, zone))
        }
        const day = localDayOf(new Date(start), zone)
        setHostZone(null)
        const byIntl = startOfLocalDay(day, zone).toISOString()
        setHostZone(zone)
        expect(startOfLocalDay(day, zone).toISOString()).toBe(byIntl)
      } finally {
        setHostZone(null)
        if (saved === undefined) delete process.env.TZ
        else process.env.TZ = saved
      }
    },
  )

  it('is offered only for names ICU takes from TZ as they are', () => {
    for (const zone of ['UTC', 'Etc/UTC', 'Europe/Berlin', 'Asia/Tokyo'])
      expect(canBeHostZone(zone), zone).toBe(true)
    for (const zone of ['Etc/GMT+5', 'EST5EDT', 'europe/berlin', 'Nowhere/City', 'US/Eastern', ''])
      expect(canBeHostZone(zone), zone).toBe(false)
  })
})
