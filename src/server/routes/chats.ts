// /api/chats: list chats, read a chat's messages, send a message (a full assistant turn).
import type { Hono } from 'hono'
import { z } from 'zod'
import { DreamlaneError } from '../../errors.js'
import type { ServerHost } from '../host.js'
import { jidSchema, limitQuery, messageText, parseInput, readJson } from '../validate.js'

const sendBody = z.strictObject({
  text: messageText,
  senderName: z.string().trim().min(1).max(80).optional(),
})

export function registerChatRoutes(app: Hono, host: ServerHost): void {
  app.get('/api/chats', (c) => c.json({ chats: host.dreamlane.messages.listChats() }))

  app.get('/api/chats/:jid/messages', (c) => {
    const jid = parseInput(jidSchema, c.req.param('jid'), 'chat id')
    const { limit } = parseInput(limitQuery, c.req.query(), 'query')
    const messages = host.assistant.history(jid, limit ?? 200)
    if (messages.length === 0 && !host.dreamlane.messages.listChats().some((chat) => chat.jid === jid)) {
      throw new DreamlaneError('NOT_FOUND', `no chat "${jid}" (GET /api/chats lists them)`)
    }
    return c.json({ chatJid: jid, messages })
  })

  app.post('/api/chats/:jid/messages', async (c) => {
    const jid = parseInput(jidSchema, c.req.param('jid'), 'chat id')
    const body = await readJson(c, sendBody)
    const turn = await host.assistant.send(
      jid,
      body.text,
      body.senderName ? { senderName: body.senderName } : {},
    )
    return c.json({ message: turn.message, reply: turn.reply, engine: turn.engine, note: turn.note }, 201)
  })
}
