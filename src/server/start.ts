// Starts the HTTP server on @hono/node-server: 127.0.0.1 by default, a token required on any other interface.
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import { UsageError } from '../errors.js'
import { createApp, type Mount } from './app.js'
import { isLoopbackHost } from './auth.js'
import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.js'
import type { ServerHost } from './host.js'

export interface StartServerOptions {
  /** @default '127.0.0.1' */
  host?: string
  /** 0 picks a free port. @default 8787 */
  port?: number
  /** Bearer token; required when `host` is not a loopback address. */
  token?: string | null
  /** Sub-apps behind the same token and checks (`serve --fleet`: bull-board at /fleet). @default none */
  mounts?: readonly Mount[]
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:8787/ */
  url: string
  host: string
  port: number
  /** Ends open event streams and connections, then stops listening. */
  close(): Promise<void>
}

export { DEFAULT_HOST, DEFAULT_PORT }
const CLOSE_GRACE_MS = 1_000

export async function startServer(
  serverHost: ServerHost,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST
  const token = checkBinding(host, options.token)
  const app = createApp(serverHost, { token, isLoopback: isLoopbackHost(host) }, options.mounts)
  const server = await listen(app.fetch, host, options.port ?? DEFAULT_PORT)
  const port = (server.address() as AddressInfo).port
  const urlHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${urlHost}:${port}/`,
    host,
    port,
    async close() {
      serverHost.hub.close()
      await serverHost.mcp.close()
      // Requests still running get a moment to finish; then their connections are cut so shutdown never hangs.
      const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
      force.unref()
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeIdleConnections()
      })
      clearTimeout(force)
    },
  }
}

/** The token to enforce (null: none); refuses a non-loopback `host` without one, before anything binds. */
export function checkBinding(host: string, token: string | null | undefined): string | null {
  const trimmed = token?.trim() || null
  if (!isLoopbackHost(host) && trimmed === null) {
    throw new UsageError(
      `binding to ${host} exposes your notes to the network: pass --token <secret> (or set DREAMLANE_TOKEN)`,
    )
  }
  return trimmed
}

function listen(
  fetch: Parameters<typeof serve>[0]['fetch'],
  hostname: string,
  port: number,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname, port }) as Server
    server.once('error', reject)
    server.once('listening', () => {
      server.off('error', reject)
      resolve(server)
    })
  })
}
