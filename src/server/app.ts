// The hono app: access guard, body limit, the API, the pages and their forms; errors answered in one place.
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { DreamlaneError } from '../errors.js'
import { accessGuard, type AccessPolicy } from './auth.js'
import { errorResponse } from './error-response.js'
import type { ServerHost } from './host.js'
import { registerChatRoutes } from './routes/chats.js'
import { registerDreamRoutes } from './routes/dreams.js'
import { registerFormRoutes } from './routes/forms.js'
import { registerPageRoutes } from './routes/pages.js'
import { registerPrivacyRoutes } from './routes/privacy.js'
import { registerPromotionRoutes } from './routes/promotions.js'
import { registerStatusRoutes } from './routes/status.js'
import { MAX_BODY_BYTES } from './validate.js'

/** Where MCP clients connect (Streamable HTTP), behind the same token and origin checks as the API. */
export const MCP_PATH = '/mcp'

/** A sub-app mounted at `path` behind the same guard, e.g. the fleet's bull-board under /fleet. */
export interface Mount {
  path: string
  app: Hono
}

/** @default no token, loopback: what `serve` uses on 127.0.0.1 without --token. */
export function createApp(
  host: ServerHost,
  policy: AccessPolicy = { token: null, isLoopback: true },
  mounts: readonly Mount[] = [],
): Hono {
  const app = new Hono()
  app.onError((error, c) => errorResponse(error, c, host.log))
  app.notFound((c) =>
    errorResponse(new DreamlaneError('NOT_FOUND', `nothing at ${c.req.method} ${c.req.path}`), c, host.log),
  )
  app.use('*', async (c, next) => {
    await next()
    // Pages and API answers are about live state: never cache them; never let another site frame them.
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('X-Frame-Options', 'DENY')
    // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts.
    c.header('Referrer-Policy', 'same-origin')
    // A mounted app may set a policy of its own (bull-board injects its styles); scripts stay same-origin.
    if (!c.res.headers.has('Content-Security-Policy'))
      c.header(
        'Content-Security-Policy',
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
      )
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store')
  })
  app.use('*', accessGuard(policy))
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new DreamlaneError('CONTENT_TOO_LARGE', `request bodies are limited to ${MAX_BODY_BYTES} bytes`)
    },
  })
  // The MCP transport enforces its own, larger limit, so an oversized tool argument gets an MCP error.
  app.use('*', (c, next) => (c.req.path === MCP_PATH ? next() : limitBody(c, next)))
  app.all(MCP_PATH, (c) => host.mcp.handle(c.req.raw))
  for (const mount of mounts) app.route(mount.path, mount.app)
  registerChatRoutes(app, host)
  registerDreamRoutes(app, host)
  registerStatusRoutes(app, host)
  registerPageRoutes(app, host)
  registerFormRoutes(app, host)
  registerPromotionRoutes(app, host)
  registerPrivacyRoutes(app, host)
  return app
}
