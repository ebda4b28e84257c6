// Retry policy: backoff and jitter, retry-after forms, giving up, stopping on abort.
import { describe, expect, it } from 'vitest'
import { fixedClock } from '../../src/clock.js'
import {
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  requestWithRetries,
  retryDelayMs,
} from '../../src/model/retry.js'
import { recordingSleep } from './provider-world.js'

const clock = fixedClock('2026-11-23T12:00:00.000Z')
const headers = (values: Record<string, string>) => new Headers(values)

describe('parseRetryAfter', () => {
  it.each([
    [{ 'retry-after': '1' }, 1000],
    [{ 'retry-after': '2.5' }, 2500],
    [{ 'retry-after-ms': '350', 'retry-after': '9' }, 350],
    [{ 'retry-after': 'Mon, 23 Nov 2026 12:00:30 GMT' }, 30_000],
    [{ 'retry-after': 'Mon, 23 Nov 2026 11:59:00 GMT' }, 0],
  ])('reads %o as %i ms', (values, expected) => {
    expect(parseRetryAfter(headers(values), clock)).toBe(expected)
  })

  it.each([[{}], [{ 'retry-after': 'soon' }], [{ 'retry-after': '' }]])('ignores %o', (values) => {
    expect(parseRetryAfter(headers(values), clock)).toBeUndefined()
  })
})

describe('retryDelayMs', () => {
  it('doubles per attempt with equal jitter, up to the ceiling', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1000, maxDelayMs: 4000 }
    expect([0, 1, 2, 3, 4].map((n) => retryDelayMs(n, undefined, policy, () => 0))).toEqual([
      500, 1000, 2000, 2000, 2000,
    ])
    expect([0, 1, 2, 3].map((n) => retryDelayMs(n, undefined, policy, () => 0.999_999))).toEqual([
      1000, 2000, 4000, 4000,
    ])
  })

  it("prefers the server's retry-after, capped", () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 10_000 }
    expect(retryDelayMs(3, 1000, policy, () => 0.5)).toBe(1000)
    expect(retryDelayMs(0, 3_600_000, policy, () => 0.5)).toBe(10_000)
  })
})

describe('requestWithRetries', () => {
  const retryable = () => ({ retryable: true, reason: 'flaky' })

  it('returns the first success after failures', async () => {
    const { sleep, waits } = recordingSleep()
    let calls = 0
    const value = await requestWithRetries(
      async () => {
        calls += 1
        if (calls < 3) throw new Error('boom')
        return 'ok'
      },
      retryable,
      { policy: DEFAULT_RETRY_POLICY, sleep, random: () => 0 },
      new AbortController().signal,
    )
    expect(value).toBe('ok')
    expect(waits).toEqual([500, 1000])
  })

  it('stops retrying once the signal aborts during a wait, rethrowing the failure', async () => {
    const controller = new AbortController()
    const failure = new Error('boom')
    let calls = 0
    const attempt = async (): Promise<never> => {
      calls += 1
      throw failure
    }
    const sleep = async () => controller.abort()
    await expect(
      requestWithRetries(
        attempt,
        retryable,
        { policy: DEFAULT_RETRY_POLICY, sleep, random: () => 0 },
        controller.signal,
      ),
    ).rejects.toBe(failure)
    expect(calls).toBe(1)
  })
})

describe('the global model-call cap', () => {
  it('holds a slot for each HTTP attempt and gives it back during the backoff', async () => {
    const events: string[] = []
    let inSlot = false
    const modelSlot = async <T>(call: () => Promise<T>): Promise<T> => {
      events.push('take')
      inSlot = true
      try {
        return await call()
      } finally {
        inSlot = false
        events.push('give')
      }
    }
    let calls = 0
    const value = await requestWithRetries(
      async () => {
        calls += 1
        if (calls === 1) throw new Error('503')
        return 'ok'
      },
      () => ({ retryable: true, reason: 'HTTP 503' }),
      {
        policy: DEFAULT_RETRY_POLICY,
        random: () => 0,
        modelSlot,
        sleep: async () => {
          events.push(inSlot ? 'sleep-in-slot' : 'sleep')
        },
      },
      new AbortController().signal,
    )
    expect(value).toBe('ok')
    expect(events).toEqual(['take', 'give', 'sleep', 'take', 'give'])
  })
})
