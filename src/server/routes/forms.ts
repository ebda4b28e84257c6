// The pages' forms (no JS needed): each POST does its work and redirects (303) to a page showing the result.
import type { Hono } from 'hono'
import { z } from 'zod'
import type { ServerHost } from '../host.js'
import { idSchema, jidSchema, messageText, parseInput, readForm } from '../validate.js'
import { DASHBOARD_CHAT } from './dreams.js'

const messageForm = z.object({ text: messageText })

export function registerFormRoutes(app: Hono, host: ServerHost): void {
  const { dreamlane } = host
  const dreamForm = z.object({ days: z.coerce.number().int().min(1).max(dreamlane.config.dream.maxDays) })

  app.post('/chat/:jid', async (c) => {
    const jid = parseInput(jidSchema, c.req.param('jid'), 'chat id')
    const form = await readForm(c, messageForm)
    await host.assistant.send(jid, form.text)
    return c.redirect(`/chat/${encodeURIComponent(jid)}#composer`, 303)
  })

  app.post('/dreams', async (c) => {
    const form = await readForm(c, dreamForm)
    const outcome = await dreamlane.triggerThroughGate({
      mode: 'manual',
      chatJid: DASHBOARD_CHAT,
      days: form.days,
    })
    if (!outcome.run) return c.redirect(`/dreams?notice=gate&gate=${encodeURIComponent(outcome.gate)}`, 303)
    return c.redirect(
      `/dreams/${encodeURIComponent(outcome.run.id)}?notice=${outcome.coalesced ? 'joined' : 'queued'}`,
      303,
    )
  })

  app.post('/dreams/:id/retry', (c) => {
    const original = dreamlane.getRun(parseInput(idSchema, c.req.param('id'), 'run id'))
    const result = dreamlane.retry(original.id)
    const notice = result.coalesced ? 'joined' : `retry&of=${encodeURIComponent(original.id)}`
    return c.redirect(`/dreams/${encodeURIComponent(result.run.id)}?notice=${notice}`, 303)
  })

  for (const action of ['apply', 'discard', 'undo'] as const) {
    app.post(`/dreams/:id/${action}`, async (c) => {
      const id = parseInput(idSchema, c.req.param('id'), 'run id')
      if (action === 'undo') await dreamlane.undo(id, { force: false })
      else await dreamlane[action](id)
      return c.redirect(`/dreams/${encodeURIComponent(id)}?notice=${action}`, 303)
    })
  }

  app.post('/backups/:id/restore', async (c) => {
    const id = parseInput(idSchema, c.req.param('id'), 'backup id')
    const result = await dreamlane.restore(id)
    host.hub.publish('restored', {
      backupId: id,
      restored: result.restored,
      removed: result.removed,
      safetyBackup: result.safetyBackup.id,
    })
    return c.redirect(
      `/dreams?notice=restored&backup=${encodeURIComponent(id)}&safety=${encodeURIComponent(result.safetyBackup.id)}#backups`,
      303,
    )
  })
}
