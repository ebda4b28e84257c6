// The model API's budget shared by the whole fleet: a sliding window of requests in Redis, and fleet-wide
// pauses when the provider answers 429 with a retry-after.
import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { ModelSlot, RetryAttempt } from '../model/retry.js'

const WINDOW_KEY = 'dreamlane:fleet:model-requests'
/**
 * Admission is counted over the window plus this much: a request admitted now may reach the API a little
 * later (a busy event loop, a new connection), and the API must still never see more than R in one window.
 */
const SEND_MARGIN_MS = 1_000
const PAUSE_KEY = 'dreamlane:fleet:model-paused-until'

/**
 * Takes one request from the window, or says how long to wait. Redis's own clock (TIME) decides, so workers
 * on machines whose clocks disagree still share one window. Returns 0 when admitted, else milliseconds to wait.
 */
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pausedUntil = tonumber(redis.call('GET', KEYS[2]) or '0')
if pausedUntil > now then return pausedUntil - now end
local max = tonumber(ARGV[1])
if max <= 0 then return 0 end
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < max then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`

/** Moves the fleet's pause forward to now + ms (never back), on Redis's clock. */
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > current then redis.call('SET', KEYS[1], untilMs, 'PX', tonumber(ARGV[1])) end
return untilMs
`

export interface FleetRateLimit {
  /** Model requests admitted per window across every worker; 0 or absent: only 429 pauses apply. */
  requests?: number
  /** @default 60 */
  perSeconds?: number
}

export interface FleetModelLimiter {
  /** Wraps each model request: waits for the fleet's window and any pause, then runs it. */
  gate: ModelSlot
  /** Told of each retry: a retry-after from the provider pauses every worker's requests that long. */
  onRetry(attempt: RetryAttempt): void
}

export function fleetModelLimiter(
  redis: Redis,
  limit: FleetRateLimit,
  hooks: { sleep: (ms: number) => Promise<void>; onPause?: (ms: number) => void },
): FleetModelLimiter {
  const windowMs = (limit.perSeconds ?? 60) * 1000 + SEND_MARGIN_MS
  const max = limit.requests ?? 0
  return {
    async gate(call) {
      for (;;) {
        const waitMs = Number(await redis.eval(ADMIT, 2, WINDOW_KEY, PAUSE_KEY, max, windowMs, randomUUID()))
        if (waitMs <= 0) return call()
        await hooks.sleep(waitMs)
      }
    },
    onRetry(attempt) {
      if (attempt.retryAfterMs === undefined || attempt.retryAfterMs <= 0) return
      const ms = Math.ceil(attempt.retryAfterMs)
      hooks.onPause?.(ms)
      // Best effort: if Redis is away the request's own retry still waits; the pause is for everyone else.
      redis.eval(PAUSE, 1, PAUSE_KEY, ms).catch(() => undefined)
    },
  }
}
