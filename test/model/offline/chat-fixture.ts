// A chat written by hand in a JSON fixture, dreamed once as the chat it describes: the shape both fact fixtures
// (assistant-chats.json, fact-lifecycle.json) share, and the one way they are turned into a dream.
import { expect } from 'vitest'
import { makeDreamWorld } from './world.js'

export interface ChatMessage {
  timestamp: string
  role: string
  sender: string
  content: string
  /** A message the exporting phone's owner sent (a WhatsApp group export). */
  fromMe?: boolean
}

export interface FixtureChat {
  timeZone: string
  now: string
  days: number
  /** Memory files as earlier dreams left them (paths relative to the workspace). */
  files?: Record<string, string>
  messages: ChatMessage[]
}

/** The workspace after one offline dream over `chat`: every file, by its path. */
export async function dreamChat(chat: FixtureChat): Promise<Map<string, string>> {
  const world = await makeDreamWorld({
    now: chat.now,
    days: chat.days,
    timeZone: chat.timeZone,
    ...(chat.files ? { files: chat.files } : {}),
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
