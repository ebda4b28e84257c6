// The model request fetch against a real loopback server: its deadline is the configured timeout, a caller's
// abort stays the caller's, and what counts as a timed-out request.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { fetchWithin, isRequestTimeout } from '../../src/model/request-fetch.js'

/** A server that never answers /silent and answers anything else at once. */
async function startServer(): Promise<string> {
  const silent: ServerResponse[] = []
  const server = createServer((req, res) => {
    if (req.url === '/silent') return void silent.push(res)
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end(`answered ${req.method} ${req.url}`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('fetchWithin', () => {
  it('sends the request as given and reads the answer', async () => {
    const url = await startServer()
    const response = await fetchWithin(1_000)(`${url}/chat`, { method: 'POST', body: '{}' })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('answered POST /chat')
  })

  it('ends a request that gets no answer at its timeout, as a timeout', async () => {
    const url = await startServer()
    const started = performance.now()
    const error = await fetchWithin(300)(`${url}/silent`).catch((e: unknown) => e)
    const elapsed = performance.now() - started
    expect(isRequestTimeout(error)).toBe(true)
    expect(elapsed).toBeGreaterThanOrEqual(300)
    expect(elapsed).toBeLessThan(1_300)
  })

  it("ends at the caller's abort before the timeout, and that is no timeout", async () => {
    const url = await startServer()
    const caller = new AbortController()
    setTimeout(() => caller.abort(), 50)
    const error = await fetchWithin(5_000)(`${url}/silent`, { signal: caller.signal }).catch(
      (e: unknown) => e,
    )
    expect((error as Error).name).toBe('AbortError')
    expect(isRequestTimeout(error)).toBe(false)
  })

  it('refuses a Request object, which it would otherwise send to "[object Request]"', async () => {
    const url = await startServer()
    await expect(fetchWithin(1_000)(new Request(`${url}/chat`))).rejects.toThrow(/takes a URL/)
  })
})

describe('isRequestTimeout', () => {
  it("knows undici's header and body timeouts inside fetch's TypeError, and nothing else", () => {
    const undici = (code: string) => Object.assign(new Error('Headers Timeout Error'), { code })
    expect(
      isRequestTimeout(new TypeError('fetch failed', { cause: undici('UND_ERR_HEADERS_TIMEOUT') })),
    ).toBe(true)
    expect(isRequestTimeout(new TypeError('terminated', { cause: undici('UND_ERR_BODY_TIMEOUT') }))).toBe(
      true,
    )
    expect(isRequestTimeout(new TypeError('fetch failed', { cause: undici('UND_ERR_SOCKET') }))).toBe(false)
    expect(isRequestTimeout(new TypeError('fetch failed'))).toBe(false)
    expect(isRequestTimeout('TimeoutError')).toBe(false)
  })
})
