import { describe, expect, it } from 'vitest'
import { AutoDreamScheduler, nextFireTimes, retryDelayMs } from '../../src/schedule/autodream.js'
import { ConfigError } from '../../src/errors.js'
import { setHostZone } from '../../src/time/local-day.js'
import { fakeTimers } from '../helpers/fake-timers.js'

const LA = 'America/Los_Angeles'

describe('AutoDream schedule', () => {
  it('fires at 01:00 Los Angeles time on both sides of the spring DST change', async () => {
    const { clock, timers, advanceTo } = fakeTimers('2026-03-06T12:00:00Z')
    const fired: string[] = []
    const scheduler = new AutoDreamScheduler({
      cron: '0 1 * * *',
      timeZone: LA,
      clock,
      timers,
      onFire: () => void fired.push(clock.now().toISOString()),
    })
    scheduler.start()
    expect(scheduler.nextRunAt?.toISOString()).toBe('2026-03-07T09:00:00.000Z')
    await advanceTo('2026-03-10T12:00:00Z')
    // 01:00 PST is 09:00 UTC; from March 8 on, 01:00 PDT is 08:00 UTC.
    expect(fired).toEqual([
      '2026-03-07T09:00:00.000Z',
      '2026-03-08T09:00:00.000Z',
      '2026-03-09T08:00:00.000Z',
      '2026-03-10T08:00:00.000Z',
    ])
  })

  it('fires once on the autumn night when 01:00 happens twice', () => {
    const times = nextFireTimes('0 1 * * *', LA, new Date('2026-10-31T12:00:00Z'), 3).map((d) =>
      d.toISOString(),
    )
    expect(times).toEqual([
      '2026-11-01T08:00:00.000Z',
      '2026-11-02T09:00:00.000Z',
      '2026-11-03T09:00:00.000Z',
    ])
  })

  it('stops firing when stopped and keeps going when onFire throws', async () => {
    const { clock, timers, advanceTo, pendingCount } = fakeTimers('2026-11-20T12:00:00Z')
    let calls = 0
    const scheduler = new AutoDreamScheduler({
      cron: '0 1 * * *',
      timeZone: 'UTC',
      clock,
      timers,
      onFire: () => {
        calls += 1
        throw new Error('boom')
      },
    })
    scheduler.start()
    await advanceTo('2026-11-22T12:00:00Z')
    expect(calls).toBe(2)
    scheduler.stop()
    expect(pendingCount()).toBe(0)
    await advanceTo('2026-11-25T12:00:00Z')
    expect(calls).toBe(2)
  })

  it('refuses an invalid cron pattern naming the key', () => {
    expect(() => nextFireTimes('every night', 'UTC', new Date())).toThrow(ConfigError)
    expect(() => nextFireTimes('every night', 'UTC', new Date())).toThrow(/autoDream\.cron/)
  })

  it('backs off 5, 10, 20, 40, 60 minutes and then stops', () => {
    const delays = [5, 10, 20, 40, 60]
    expect([0, 1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, delays))).toEqual([
      300_000,
      600_000,
      1_200_000,
      2_400_000,
      3_600_000,
      null,
    ])
  })
})

describe('next fire times in UTC (a fixed offset, no Intl formatter)', () => {
  it('are the times croner gives with the UTC zone, for each pattern and start', async () => {
    const { Cron } = await import('croner')
    const patterns = [
      '0 1 * * *',
      '0 3 * * *',
      '0 5 * * 0',
      '*/7 * * * *',
      '30 2 * * 1-5',
      '0 0 29 2 *',
      '0 0 L * *',
    ]
    for (const pattern of patterns) {
      for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 86_400_000 * 9.37) {
        const from = new Date(ms)
        const reference = new Cron(pattern, { timezone: 'UTC', paused: true }).nextRuns(3, from)
        for (const zone of ['UTC', 'Etc/UTC'])
          expect(nextFireTimes(pattern, zone, from, 3).map(String), `${pattern} ${zone}`).toEqual(
            reference.map(String),
          )
      }
    }
  })
})

describe('next fire times in the host zone (croner on local time)', () => {
  it.each(['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago'])(
    'are the times croner gives with the zone named, across DST changes in %s',
    async (zone) => {
      const { Cron } = await import('croner')
      const saved = process.env.TZ
      process.env.TZ = zone
      setHostZone(zone)
      try {
        for (const pattern of ['0 1 * * *', '30 2 * * *', '0 3 * * *', '0 5 * * 0', '15 */3 * * *']) {
          for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 3_600_000 * 13.7) {
            const from = new Date(ms)
            const reference = new Cron(pattern, { timezone: zone, paused: true }).nextRuns(2, from)
            expect(
              nextFireTimes(pattern, zone, from, 2).map(String),
              `${pattern} ${from.toISOString()}`,
            ).toEqual(reference.map(String))
          }
        }
      } finally {
        setHostZone(null)
        if (saved === undefined) delete process.env.TZ
        else process.env.TZ = saved
      }
    },
  )
})
