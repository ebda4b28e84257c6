// Chats written by hand: a user with an assistant (errands, a project, a move), a family group
// exported from WhatsApp, and five pairs of friends over ten months. Each is dreamed once; the keyed facts its memory
// files must hold, no more and no fewer, were checked by hand against what was said.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dreamChat, type FixtureChat } from './chat-fixture.js'
import { keyedFacts } from './world.js'

interface Chat extends FixtureChat {
  about: string
  facts: string[]
  /** Words a daily note must hold, and must not: dates read right and wrong. */
  notes?: { has?: string[]; hasNot?: string[] }
}

const FIXTURE = join(import.meta.dirname, '../../fixtures/assistant-chats.json')
const { chats } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { chats: Record<string, Chat> }

describe('chats with an assistant and a group: the keyed facts a dream asserts, all and only', () => {
  it.each(Object.entries(chats))('%s', async (name, chat) => {
    const snapshot = await dreamChat(chat)
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
