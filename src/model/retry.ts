// Retries one model request: exponential backoff with jitter, honouring retry-after, stopping on abort.
import type { Clock } from '../clock.js'
import { DreamlaneError, errorMessage } from '../errors.js'
import type { TurnUsage } from './provider.js'

/** Waits `ms`, resolving early (never rejecting) when `signal` aborts. Injected so tests never wait. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>

export interface RetryPolicy {
  /** Attempts after the first. @default 4 */
  maxRetries: number
  /** First backoff; doubles per attempt. @default 1000 */
  baseDelayMs: number
  /** Backoff ceiling, before jitter. @default 30000 */
  maxDelayMs: number
  /** A server asking for a longer wait than this is waited this long at most. @default 60000 */
  maxRetryAfterMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
}

/** What a failed attempt means: retry (after the server's wait, if it named one) or give up. */
export interface RetryDecision {
  retryable: boolean
  retryAfterMs?: number
  /** Short description for the log and the final error, e.g. "HTTP 529 overloaded_error". */
  reason: string
}

export interface RetryAttempt {
  attempt: number
  delayMs: number
  reason: string
  /** The wait the server asked for (retry-after), before capping; absent when backoff decided. */
  retryAfterMs?: number
}

export interface RetryOptions {
  policy: RetryPolicy
  sleep: Sleep
  /** 0 ≤ x < 1; injected so jitter is reproducible. */
  random: () => number
  /** Told before each wait (logs, tests). */
  onRetry?: (attempt: RetryAttempt) => void
  /** Holds one slot of the global model-call cap for the length of one HTTP attempt (not its backoff). */
  modelSlot?: ModelSlot
}

/**
 * Runs one model call inside the process-wide cap on concurrent model calls (LaneManager.withModelSlot);
 * `meter` says what the call may cost, for a token budget shared beyond this process (a fleet).
 */
export type ModelSlot = <T>(call: () => Promise<T>, meter?: RequestMeter<T>) => Promise<T>

/** What one model request may cost before it is sent, and what the provider says it cost. */
export interface RequestMeter<T> {
  /** An upper estimate: the request's input at chars/4 plus its max_tokens (what output may add). */
  reservedTokens: number
  /** The usage the provider reported in its answer. */
  usageOf(response: T): TurnUsage
}

/** Real-time sleep that ends early on abort. */
export const sleepFor: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    function done(): void {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
  })

/**
 * Runs `attempt` until it succeeds, `classify` calls a failure final, retries run out, or `signal` aborts.
 * Gives up with PROVIDER_FAILED carrying the last failure as cause; an abort rethrows the attempt's error as is.
 */
export async function requestWithRetries<T>(
  attempt: () => Promise<T>,
  classify: (error: unknown) => RetryDecision,
  options: RetryOptions,
  signal: AbortSignal,
  meter?: RequestMeter<T>,
): Promise<T> {
  for (let attemptNo = 0; ; attemptNo += 1) {
    try {
      return await (options.modelSlot ? options.modelSlot(attempt, meter) : attempt())
    } catch (error) {
      if (signal.aborted) throw error
      const decision = classify(error)
      if (!decision.retryable) {
        throw new DreamlaneError('PROVIDER_FAILED', `model request failed: ${decision.reason}`, {
          cause: error,
        })
      }
      if (attemptNo >= options.policy.maxRetries) {
        const tries = attemptNo + 1
        throw new DreamlaneError(
          'PROVIDER_FAILED',
          `model request failed after ${tries} attempt(s): ${decision.reason}`,
          {
            cause: error,
          },
        )
      }
      const delayMs = retryDelayMs(attemptNo, decision.retryAfterMs, options.policy, options.random)
      const asked = decision.retryAfterMs === undefined ? {} : { retryAfterMs: decision.retryAfterMs }
      options.onRetry?.({ attempt: attemptNo + 1, delayMs, reason: decision.reason, ...asked })
      await options.sleep(delayMs, signal)
      if (signal.aborted) throw error
    }
  }
}

/**
 * The wait before retry `attemptNo + 1`: the server's retry-after when given (capped), otherwise
 * exponential backoff with "equal jitter" (half fixed, half random) so a herd of clients spreads out.
 */
export function retryDelayMs(
  attemptNo: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number,
): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs)
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attemptNo)
  return Math.round(ceiling / 2 + (ceiling / 2) * random())
}

/**
 * Milliseconds a server asked us to wait: `retry-after-ms`, or `retry-after` as seconds or an HTTP date.
 * Undefined when absent or unreadable (then backoff decides).
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  clock: Clock,
): number | undefined {
  const millis = headers?.get('retry-after-ms')
  if (millis && Number.isFinite(Number(millis))) return Math.max(0, Number(millis))
  const raw = headers?.get('retry-after')?.trim()
  if (!raw) return undefined
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000)
  const at = Date.parse(raw)
  return Number.isNaN(at) ? undefined : Math.max(0, at - clock.now().getTime())
}

/** HTTP statuses worth another attempt: rate limits, overload and transient server errors. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504, 529])

/** A readable reason for a failure that carries no HTTP status (connection reset, DNS, timeout). */
export function describeFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${errorMessage(error)}${cause}`
}

/** The request-level knobs both real providers take; everything outside the process is injectable. */
export interface ProviderRequestOptions {
  /** Per-request timeout, headers and body; a request that exceeds it is retried like a dropped connection. @default 120000 */
  requestTimeoutMs?: number
  /** Cap on max_tokens per request (the turn's output budget may lower it). @default 4096 */
  maxTokensPerRequest?: number
  retry?: Partial<RetryPolicy>
  /** @default real setTimeout sleep */
  sleep?: Sleep
  /** @default Math.random */
  random?: () => number
  /** Reads HTTP-date retry-after values. @default systemClock */
  clock?: Clock
  onRetry?: (attempt: RetryAttempt) => void
  modelSlot?: ModelSlot
}

export function retryOptionsOf(options: ProviderRequestOptions): RetryOptions {
  return {
    policy: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    sleep: options.sleep ?? sleepFor,
    random: options.random ?? Math.random,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.modelSlot ? { modelSlot: options.modelSlot } : {}),
  }
}
