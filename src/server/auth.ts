// Access control: an optional bearer token (header or cookie), same-origin writes, and Host checks on loopback.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { DreamlaneError } from '../errors.js'

export const TOKEN_COOKIE = 'dreamlane_token'

export interface AccessPolicy {
  /** Required on every request when set. */
  token: string | null
  /** True when bound to a loopback address: then only loopback Host names are served (no DNS rebinding). */
  isLoopback: boolean
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127(?:\.\d{1,3}){3}$/.test(host)
}

export function accessGuard(policy: AccessPolicy): MiddlewareHandler {
  const expected = policy.token === null ? null : digest(policy.token)
  return async (c, next) => {
    if (policy.isLoopback && !isLoopbackHost(hostnameOf(c.req.header('host') ?? ''))) {
      throw new DreamlaneError('FORBIDDEN', 'this server only answers to 127.0.0.1 and localhost')
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD')
      checkSameOrigin(c.req.header('origin'), c.req.header('sec-fetch-site'), c.req.header('host'))
    if (expected === null) return next()
    const fromQuery = c.req.query('token')
    // A link carrying ?token= (the URL `serve` prints) logs the browser in once, then the cookie carries it.
    if (
      fromQuery !== undefined &&
      matches(fromQuery, expected) &&
      c.req.method === 'GET' &&
      !c.req.path.startsWith('/api/')
    ) {
      setCookie(c, TOKEN_COOKIE, fromQuery, { httpOnly: true, sameSite: 'Strict', path: '/' })
      const url = new URL(c.req.url)
      url.searchParams.delete('token')
      return c.redirect(`${url.pathname}${url.search}`, 303)
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    const presented = bearer ?? getCookie(c, TOKEN_COOKIE)
    if (presented === undefined || !matches(presented, expected)) {
      throw new DreamlaneError(
        'UNAUTHORIZED',
        'a bearer token is required (Authorization: Bearer <token>, or open the URL with ?token=)',
      )
    }
    return next()
  }
}

/** Form posts and fetches from other sites are refused, so a page elsewhere cannot trigger dreams or restores. */
function checkSameOrigin(
  origin: string | undefined,
  fetchSite: string | undefined,
  host: string | undefined,
): void {
  if (fetchSite === 'same-origin') return
  if (fetchSite === 'cross-site' || fetchSite === 'same-site')
    throw new DreamlaneError('FORBIDDEN', 'cross-site requests are refused')
  // Clients that send no Origin (curl, scripts) are not browsers acting for another site.
  if (origin === undefined) return
  let originHost = ''
  try {
    originHost = new URL(origin).host
  } catch {
    // "null" (sandboxed frames, file pages) and garbage never equal our host.
  }
  if (originHost !== host) throw new DreamlaneError('FORBIDDEN', `requests from ${origin} are refused`)
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1)
  return hostHeader.split(':')[0] ?? ''
}

// Hashing first makes the comparison constant-time whatever the lengths.
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

function matches(presented: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(presented), expected)
}
