// A nightly dream's engine weighs words against the user's chats before the window, not against its own night.
import { describe, expect, it } from 'vitest'
import { openMessagesDb } from '../../src/db/messages.js'
import { createScriptedProvider } from '../../src/model/scripted.js'
import type { ModelProvider, TurnInput } from '../../src/model/provider.js'
import { wordHistoryBefore } from '../../src/model/offline/word-history.js'
import { termsOf } from '../../src/model/offline/word-weights.js'
import { makeDreamWorld, SMALL_HISTORY } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'

// Before the two-day window that ends on NOW (2026-11-21): a week of talk about the garden, a dream channel's
// message and dreamlane's own summary, and one message 400 days back.
const EARLIER: MessageSpec[] = [
  ...Array.from({ length: 7 }, (_, day) => ({
    chatJid: 'web:main',
    content: `The garden needs watering again, day ${day}.`,
    timestamp: `2026-11-${String(10 + day).padStart(2, '0')}T08:00:00.000Z`,
  })),
  { chatJid: 'telegram:7', content: 'Garden party at the Smiths.', timestamp: '2026-11-12T19:00:00.000Z' },
  { chatJid: 'dream:manual:web:main:1', content: 'tool call garden', timestamp: '2026-11-15T03:00:00.000Z' },
  {
    chatJid: 'web:main',
    sender: 'dreamlane',
    isBotMessage: true,
    content: 'Dream finished: garden summary',
    timestamp: '2026-11-15T03:01:00.000Z',
  },
  { chatJid: 'web:main', content: 'Ancient history about tulips.', timestamp: '2025-10-01T08:00:00.000Z' },
]

/** A scripted provider that records the turn input it gets; `weighsWords` as given. */
function recording(weighsWords: boolean): { provider: ModelProvider; inputs: TurnInput[] } {
  const inner = createScriptedProvider([{ text: 'Nothing to do.' }])
  const inputs: TurnInput[] = []
  const provider: ModelProvider = {
    ...inner,
    ...(weighsWords ? { weighsWords } : {}),
    runTurn: (input, tools, signal) => {
      inputs.push(input)
      return inner.runTurn(input, tools, signal)
    },
  }
  return { provider, inputs }
}

describe('word history for an engine that weighs words', () => {
  it('gives such a provider the counts of the visible messages of the year before the window', async () => {
    const world = await makeDreamWorld([...EARLIER, ...SMALL_HISTORY])
    const { provider, inputs } = recording(true)
    const dreamlane = world.open({ provider })
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await dreamlane.shutdown()
    const history = inputs[0]?.context.wordHistory
    // The seven garden messages and the Smiths' party: not the dream channel, not dreamlane's summary, not the
    // message of last year, not the window's own.
    expect(history?.documents).toBe(8)
    expect(history?.documentFrequency.get('garden')).toBe(8)
    expect(history?.documentFrequency.get('tulip')).toBeUndefined()
    expect(history?.documentFrequency.get('porto')).toBeUndefined()
  })

  it('gives a provider that does not weigh words none', async () => {
    const world = await makeDreamWorld([...EARLIER, ...SMALL_HISTORY])
    const { provider, inputs } = recording(false)
    const dreamlane = world.open({ provider })
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await dreamlane.shutdown()
    expect(inputs).toHaveLength(1)
    expect(inputs[0]?.context.wordHistory).toBeUndefined()
  })

  it('counts the latest messages first when there are more than the cap', async () => {
    const world = await makeDreamWorld(EARLIER)
    const messages = openMessagesDb(world.paths.messagesDb)
    try {
      const contents = await messages.contentsBetween(
        new Date('2026-11-01T00:00:00Z'),
        new Date('2026-11-20T00:00:00Z'),
        3,
      )
      expect(contents).toEqual([
        'The garden needs watering again, day 6.',
        'The garden needs watering again, day 5.',
        'The garden needs watering again, day 4.',
      ])
      // Across the spans it reads back in (a week, then two), newest first, to the start of the range.
      const all = await messages.contentsBetween(
        new Date('2026-11-01T00:00:00Z'),
        new Date('2026-11-20T00:00:00Z'),
        100,
      )
      expect(all.map((content) => /day (\d)|Smiths/.exec(content)?.[0])).toEqual([
        ...['day 6', 'day 5', 'day 4', 'day 3', 'Smiths', 'day 2', 'day 1', 'day 0'],
      ])
      const counts = await wordHistoryBefore(messages, new Date('2026-11-20T00:00:00Z'))
      expect(counts.documentFrequency.get([...termsOf('watering')][0]!)).toBe(7)
    } finally {
      messages.close()
    }
  })
})
