// `/dream 365` on a history too big for the configured tool budget: every day with messages ends summarised.
import { describe, expect, it } from 'vitest'
import { openMessagesDb, type NewMessage } from '../../src/db/messages.js'
import { selectProvider } from '../../src/model/select.js'
import { readBacklog } from '../../src/notes/backlog.js'
import { listDailyNoteDays } from '../../src/notes/daily-files.js'
import { dayWindow } from '../../src/time/local-day.js'
import { MESSAGE_PAGE_CEILING } from '../../src/tools/message-tools.js'
import { makeDreamWorld, NOW } from '../helpers/dream-world.js'

const DAYS = 365
const MESSAGES_PER_DAY = 30
const CHATS = ['web:main', 'web:work', 'wa:family']
const TOPICS = ['garden', 'invoice', 'ferry', 'concert', 'migration', 'passport', 'recipe', 'marathon']
const PLACES = ['Porto', 'Braga', 'Lisbon', 'Faro', 'Coimbra']

/** MESSAGES_PER_DAY messages on each of the window's days, spread over three chats, varied enough to summarise. */
function yearOfMessages(): NewMessage[] {
  const window = dayWindow(new Date(NOW), DAYS, 'UTC')
  return window.days.flatMap((day, d) =>
    Array.from({ length: MESSAGES_PER_DAY }, (_, i): NewMessage => {
      const isBot = i % 2 === 1
      const topic = TOPICS[(d + i) % TOPICS.length]
      const place = PLACES[(d * 3 + i) % PLACES.length]
      const minute = String(i % 60).padStart(2, '0')
      return {
        id: `y${d}-${i}`,
        chatJid: CHATS[i % CHATS.length]!,
        sender: isBot ? 'bot' : 'user',
        senderName: isBot ? 'Assistant' : 'Alex',
        content: isBot
          ? `Noted the ${topic} plan for ${place}.`
          : `Day ${d}: sorted out the ${topic} in ${place} with Rui, ${i + 2} items left.`,
        timestamp: `${day}T${String(8 + Math.floor(i / 60)).padStart(2, '0')}:${minute}:00.000Z`,
        isBotMessage: isBot,
        isFromMe: !isBot,
      }
    }),
  )
}

describe('a year-long dream on a big history', () => {
  it('summarises every day with messages, paging in bulk within a budget that grows with the window', async () => {
    const world = await makeDreamWorld([])
    const history = yearOfMessages()
    const db = openMessagesDb(world.paths.messagesDb)
    CHATS.forEach((jid) => db.upsertChat(jid, jid))
    db.insertMessages(history)
    db.close()
    // What a fixed budget could not do: the configured calls do not even cover reading and writing every note.
    const { maxToolCalls } = world.config.dream
    expect(maxToolCalls).toBeLessThan(2 * DAYS)

    // The offline engine as a host selects it (lazily loaded), so its bulk page size must survive the wrapper.
    const dreamlane = world.open({ provider: selectProvider(world.config, {}).provider })
    try {
      const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: DAYS })

      expect(run.status).toBe('succeeded')
      const days = await listDailyNoteDays(world.paths)
      expect(days).toHaveLength(DAYS)
      expect(await readBacklog(world.paths, days)).toEqual([])
      const pages = run.toolCalls.filter((call) => call.name === 'get_messages')
      // Bulk pages, each still capped by the tools, and every one inside the scaled budget.
      expect(pages.length).toBeLessThanOrEqual(Math.ceil(history.length / MESSAGE_PAGE_CEILING) + 1)
      expect(run.toolCalls.length).toBeGreaterThan(maxToolCalls)
      expect(pages.every((call) => call.ok)).toBe(true)
    } finally {
      await dreamlane.close()
    }
  }, 60_000)
})
