// Chats written by hand: a user with an assistant (errands, a project, a move), a family group
// exported from WhatsApp, and three pairs of friends over ten months. Each is dreamed once; the keyed facts its memory
// files must hold, no more and no fewer, were checked by hand against what was said.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keyedFacts, makeDreamWorld } from './world.js'

interface Chat {
  about: string
  timeZone: string
  now: string
  days: number
  messages: { timestamp: string; role: string; sender: string; content: string; fromMe?: boolean }[]
  facts: string[]
  /** Words a daily note must hold, and must not: dates read right and wrong. */
  notes?: { has?: string[]; hasNot?: string[] }
}

const FIXTURE = join(import.meta.dirname, '../../fixtures/assistant-chats.json')
const { chats } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { chats: Record<string, Chat> }

async function dreamOf(chat: Chat): Promise<Map<string, string>> {
  const world = await makeDreamWorld({
    now: chat.now,
    days: chat.days,
    timeZone: chat.timeZone,
    messages: chat.messages.map((message, index) => ({
      id: `c${index}`,
      chatJid: 'chat:main',
      content: message.content,
      timestamp: message.timestamp,
      sender: message.role === 'assistant' ? 'bot' : message.sender,
      senderName: message.sender,
      isBotMessage: message.role === 'assistant',
      ...(message.fromMe !== undefined ? { isFromMe: message.fromMe } : {}),
    })),
  })
  expect((await world.dream()).stop).toBe('end')
  return world.snapshot()
}

describe('chats with an assistant and a group: the keyed facts a dream asserts, all and only', () => {
  it.each(Object.entries(chats))('%s', async (name, chat) => {
    const snapshot = await dreamOf(chat)
    const facts = keyedFacts(snapshot)
    if (process.env.DREAMLANE_PRINT_FACTS) console.log(JSON.stringify({ [name]: facts }))
    expect(facts).toEqual([...chat.facts].sort())
    const daily = [...snapshot]
      .filter(([path]) => path.startsWith('notes/daily/'))
      .map(([, text]) => text)
      .join('\n')
    for (const words of chat.notes?.has ?? []) expect(daily).toContain(words)
    for (const words of chat.notes?.hasNot ?? []) expect(daily).not.toContain(words)
  })
})
