// The fetch both HTTP providers send model requests with, bounded by the configured request timeout and by nothing
// else. Node's built-in fetch (undici inside Node) stops waiting for response headers, and between body chunks,
// after 300 s whatever the caller's timer says, so a slow local model or a relay given 30 minutes failed at 5.
// Here undici's own fetch runs on an undici Agent whose header and body waits follow the configured timeout.
import type { Agent, RequestInit as UndiciRequestInit } from 'undici'

/** What the providers (and the Anthropic SDK's `fetch` option) call: a URL and the global fetch's init. */
export type RequestFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

// setTimeout (so AbortSignal.timeout and undici's timers) fires at once past a signed 32-bit delay (~24.8 days).
const MAX_TIMER_MS = 2 ** 31 - 1

// undici takes ~150 ms to import: loaded with the first model request, so `serve`, `chat` and `mcp` with the
// offline engine (which import this provider's module) start without it.
let undici: Promise<typeof import('undici')> | undefined

// One Agent per timeout, shared by every provider with that timeout, so connections are kept alive from one
// request, and one dream, to the next. Providers have no close: an idle Agent holds no timer and its idle
// sockets keep no process alive, and undici closes them after its keep-alive timeout.
const dispatchers = new Map<number, Agent>()

async function transportFor(
  timeoutMs: number,
): Promise<{ fetch: typeof import('undici').fetch; agent: Agent }> {
  const loaded = await (undici ??= import('undici'))
  let agent = dispatchers.get(timeoutMs)
  if (!agent) {
    agent = new loaded.Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs })
    dispatchers.set(timeoutMs, agent)
  }
  return { fetch: loaded.fetch, agent }
}

/**
 * A fetch whose every request, headers and body, ends after `timeoutMs` with an abort whose reason is a
 * `TimeoutError`. undici's own timers are coarse (they may fire up to a second late), so the deadline is this
 * signal's; the Agent's header and body timeouts only make sure no hidden default ends a request sooner.
 */
export function fetchWithin(timeoutMs: number): RequestFetch {
  const limit = Math.min(timeoutMs, MAX_TIMER_MS)
  return async (input, init = {}) => {
    // A global Request is another undici's class, which this fetch would read as the string "[object Request]".
    if (input instanceof Request) throw new TypeError('the model request fetch takes a URL, not a Request')
    const deadline = AbortSignal.timeout(limit)
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline
    const { fetch, agent } = await transportFor(limit)
    const response = await fetch(input, { ...(init as UndiciRequestInit), signal, dispatcher: agent })
    // undici's Response is the class the global one is built from; the types differ only by package.
    return response as unknown as Response
  }
}

const UNDICI_TIMEOUTS: ReadonlySet<unknown> = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

/**
 * True when `error`, or an error in its cause chain, is a request running out of time: the deadline's
 * `TimeoutError`, or undici's header or body timeout (fetch wraps those in a TypeError).
 */
export function isRequestTimeout(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth += 1) {
    if (at.name === 'TimeoutError' || UNDICI_TIMEOUTS.has((at as { code?: unknown }).code)) return true
  }
  return false
}

/** The reason a timed-out attempt is retried with, and the last one's words in the run record. */
export function timeoutReason(timeoutMs: number): string {
  return `the request timed out after ${timeoutMs} ms (requestTimeoutMs)`
}
