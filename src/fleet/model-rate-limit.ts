// The model API's budget shared by the whole fleet: sliding windows of requests and of tokens in Redis, and
// fleet-wide pauses when the provider answers 429 with a retry-after.
import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import { budgetTokensOf } from '../model/limits.js'
import type { ModelSlot, RetryAttempt } from '../model/retry.js'

const REQUESTS_KEY = 'dreamlane:fleet:model-requests'
/** Each admitted request's tokens: when it was admitted (a sorted set) and what it counts (a hash). */
const TOKEN_TIMES_KEY = 'dreamlane:fleet:model-token-times'
const TOKEN_COSTS_KEY = 'dreamlane:fleet:model-token-costs'
const PAUSE_KEY = 'dreamlane:fleet:model-paused-until'
/**
 * Admission is counted over the window plus this much: a request admitted now may reach the API a little
 * later (a busy event loop, a new connection), and the API must still never see more than R in one window.
 */
const SEND_MARGIN_MS = 1_000
/**
 * A request waiting for tokens looks again at least this often: reservations shrink to the real usage as
 * answers come in, which frees budget before the oldest entry leaves the window.
 */
const TOKEN_RECHECK_MS = 500

/**
 * Admits one request against both windows at once, or says how long to wait. Redis's own clock (TIME)
 * decides, so workers on machines whose clocks disagree still share one window. Tokens are admitted while
 * what the window holds plus this request's reservation fits the budget; an empty window admits any one
 * request (one larger than the whole budget would otherwise never go). Returns 0 when admitted, else the
 * milliseconds to wait. Each call walks the window's entries: as many as requests in one window.
 */
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pausedUntil = tonumber(redis.call('GET', KEYS[2]) or '0')
if pausedUntil > now then return pausedUntil - now end
local maxRequests = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local maxTokens = tonumber(ARGV[4])
local reserve = tonumber(ARGV[5])
local wait = 0
if maxRequests > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
  if redis.call('ZCARD', KEYS[1]) >= maxRequests then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    wait = math.max(1, tonumber(oldest[2]) + window - now)
  end
end
if maxTokens > 0 then
  local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - window)
  for _, id in ipairs(expired) do redis.call('HDEL', KEYS[4], id) end
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
  local entries = redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')
  local costs = {}
  local used = 0
  for i = 1, #entries, 2 do
    local cost = tonumber(redis.call('HGET', KEYS[4], entries[i]) or '0')
    costs[#costs + 1] = { cost, tonumber(entries[i + 1]) }
    used = used + cost
  end
  if used > 0 and used + reserve > maxTokens then
    -- Wait until enough of the oldest entries leave the window, or a while, whichever is sooner.
    local tokenWait = ${TOKEN_RECHECK_MS}
    for _, entry in ipairs(costs) do
      used = used - entry[1]
      if used + reserve <= maxTokens then
        tokenWait = math.min(tokenWait, math.max(1, entry[2] + window - now))
        break
      end
    end
    wait = math.max(wait, tokenWait)
  end
end
if wait > 0 then return wait end
if maxRequests > 0 then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
end
if maxTokens > 0 then
  redis.call('ZADD', KEYS[3], now, ARGV[3])
  redis.call('HSET', KEYS[4], ARGV[3], reserve)
  redis.call('PEXPIRE', KEYS[3], window)
  redis.call('PEXPIRE', KEYS[4], window)
end
return 0
`

/** Replaces a request's reservation by what it really counts (0 when it failed), if it is still in the window. */
const SETTLE = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return 0
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
  /** Model requests admitted per window across every worker; 0 or absent: no request limit. */
  requests?: number
  /**
   * Model tokens per window across every worker, counted as the provider bills them: fresh input, cache
   * writes and output in full, cache reads at a tenth (budgetTokensOf). 0 or absent: no token limit.
   */
  tokens?: number
  /** @default 60 */
  perSeconds?: number
}

export interface FleetModelLimiter {
  /** Wraps each model request: waits for the fleet's windows and any pause, runs it, records its tokens. */
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
  const maxRequests = limit.requests ?? 0
  const maxTokens = limit.tokens ?? 0
  const keys = [REQUESTS_KEY, PAUSE_KEY, TOKEN_TIMES_KEY, TOKEN_COSTS_KEY]
  return {
    async gate(call, meter) {
      const id = randomUUID()
      // Until the answer says what it cost, a request holds its upper estimate (input + max_tokens), the
      // way the Messages API itself counts output tokens; without a meter it can only be counted as zero.
      const reserve = Math.max(0, Math.ceil(meter?.reservedTokens ?? 0))
      for (;;) {
        const args = [maxRequests, windowMs, id, maxTokens, reserve]
        const waitMs = Number(await redis.eval(ADMIT, keys.length, ...keys, ...args))
        if (waitMs <= 0) break
        await hooks.sleep(waitMs)
      }
      if (maxTokens <= 0) return call()
      let used = 0
      try {
        const response = await call()
        used = meter ? budgetTokensOf(meter.usageOf(response)) : 0
        return response
      } finally {
        // A failed request (429, 5xx, dropped) reports no usage, so it gives its reservation back.
        await redis.eval(SETTLE, 2, TOKEN_TIMES_KEY, TOKEN_COSTS_KEY, id, used).catch(() => undefined)
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
