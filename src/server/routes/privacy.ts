// /api/forget (preview, or confirm with the preview's token) and /api/privacy (the chats kept out of memory).
import type { Hono } from 'hono'
import { z } from 'zod'
import type { ServerHost } from '../host.js'
import { readJson } from '../validate.js'

const forgetBody = z.strictObject({
  what: z.string().trim().min(1).max(200),
  /** Remove it now; without it the answer is the preview (nothing changes). */
  confirm: z.boolean().optional(),
  /** The preview's token: the confirm removes exactly what that preview showed, or is refused. */
  token: z.string().max(64).optional(),
  purgeBackups: z.boolean().optional(),
})

export function registerPrivacyRoutes(app: Hono, host: ServerHost): void {
  const { dreamlane } = host

  app.post('/api/forget', async (c) => {
    const body = await readJson(c, forgetBody)
    if (!body.confirm) return c.json({ confirmed: false, ...(await dreamlane.previewForget(body.what)) })
    const result = await dreamlane.forget(body.what, {
      ...(body.token !== undefined ? { token: body.token } : {}),
      purgeBackups: Boolean(body.purgeBackups),
      chatJid: 'http',
    })
    return c.json({ confirmed: true, ...result })
  })

  app.post('/api/forget/undo', async (c) => {
    const body = await readJson(c, z.strictObject({ id: z.string().max(100).optional() }))
    return c.json(await dreamlane.undoForget(body.id))
  })

  app.get('/api/privacy', (c) => c.json(dreamlane.excludedChats()))
}
