import { describe, expect, it } from 'vitest'
import { parseTimestamp, wallTimeToUtc } from '../../src/import/wall-time.js'

const wall = (iso: string) => {
  const [date, time] = iso.split('T') as [string, string]
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  const [hour, minute] = time.split(':').map(Number) as [number, number]
  return { year, month, day, hour, minute, second: 0 }
}

describe('wallTimeToUtc', () => {
  it.each([
    ['2025-12-31T21:05', 'Europe/Berlin', '2025-12-31T20:05:00.000Z'],
    ['2025-07-01T09:00', 'Europe/Berlin', '2025-07-01T07:00:00.000Z'],
    ['2025-12-31T21:05', 'America/New_York', '2026-01-01T02:05:00.000Z'],
    ['2025-12-31T21:05', 'Asia/Kolkata', '2025-12-31T15:35:00.000Z'],
    // Spring forward: 02:30 does not exist in Berlin on 2025-03-30 → moved forward by the gap (03:30 CEST).
    ['2025-03-30T02:30', 'Europe/Berlin', '2025-03-30T01:30:00.000Z'],
    // Fall back: 02:30 happens twice on 2025-10-26 → the first one (CEST).
    ['2025-10-26T02:30', 'Europe/Berlin', '2025-10-26T00:30:00.000Z'],
  ])('%s in %s is %s', (local, zone, utc) => {
    expect(wallTimeToUtc(wall(local), zone).toISOString()).toBe(utc)
  })
})

describe('parseTimestamp', () => {
  it.each([
    ['2025-11-02T09:00:00Z', '2025-11-02T09:00:00.000Z'],
    ['2025-11-02T10:00:00+01:00', '2025-11-02T09:00:00.000Z'],
    ['2025-11-02 10:00:00.250+0100', '2025-11-02T09:00:00.250Z'],
    ['2025-11-02 10:00', '2025-11-02T09:00:00.000Z'], // zone-less: read in Europe/Berlin
    ['2025-11-02', '2025-11-01T23:00:00.000Z'],
    [1762074000, '2025-11-02T09:00:00.000Z'], // epoch seconds
    [1762074000123, '2025-11-02T09:00:00.123Z'], // epoch milliseconds
  ])('%s → %s', (input, utc) => {
    expect(parseTimestamp(input, 'Europe/Berlin')?.toISOString()).toBe(utc)
  })

  it.each(['yesterday', '2025-13-01T00:00:00Z', '2025-02-30 10:00', '', -5, null, {}])(
    'refuses %j',
    (input) => {
      expect(parseTimestamp(input, 'UTC')).toBeNull()
    },
  )
})
