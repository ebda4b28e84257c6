// A large window's facts, extracted partly in a thread of their own, are exactly the facts extracted inline.
import { describe, expect, it } from 'vitest'
import { extractFacts } from '../../../src/model/offline/extract.js'
import {
  expectedUserMessages,
  prepareFactExtraction,
  THREADED_EXTRACTION_MIN,
} from '../../../src/model/offline/facts-of-window.js'
import type { WindowMessage } from '../../../src/model/offline/types.js'

const SAID = [
  'I moved to Porto last month, the flat near the river.',
  'Our Atlas launch is on December 4, not November 27.',
  'Please always give me metric units.',
  'My cat is called Miso.',
  'I joined Globex as a data engineer on Monday.',
  'Dinner with Ana next Friday at 8pm in Braga.',
  'ok thanks!',
]

/** `count` messages over a week, every other one the user's, in shuffled time order (extraction sorts them). */
function window(count: number): WindowMessage[] {
  const start = Date.parse('2026-11-16T08:00:00Z')
  return Array.from({ length: count }, (_, index) => {
    const at = new Date(start + ((index * 7919) % count) * 30_000).toISOString()
    return {
      id: `m${index}`,
      chat: 'web:main',
      root: 'web:main',
      chatName: 'main',
      ts: at,
      role: index % 2 === 0 ? 'user' : 'assistant',
      sender: index % 2 === 0 ? 'Maya' : 'Assistant',
      content: `${SAID[index % SAID.length]} (note ${index})`,
      day: at.slice(0, 10),
    } satisfies WindowMessage
  })
}

const NEVER = new AbortController().signal

function noteWithUserCount(day: string, user: number): string {
  return [
    '---',
    `date: '${day}'`,
    'summarised_until: null',
    `messages_total: ${user * 2}`,
    `messages_user: ${user}`,
    `messages_assistant: ${user}`,
    'session_trees: 1',
    'session_chats: 1',
    `first_message: '${day}T08:00:00.000Z'`,
    `last_message: '${day}T20:00:00.000Z'`,
    'scope_mode: local-day',
    `scope_anchor: '${day} UTC'`,
    '---',
    '# A day',
    '',
  ].join('\n')
}

describe('prepareFactExtraction', () => {
  it('gives a large window the same facts in the same order as inline extraction', async () => {
    const messages = window(THREADED_EXTRACTION_MIN * 2 + 10)
    const split = await prepareFactExtraction(0, 'Europe/Lisbon', NEVER).start(messages).finish()
    const inline = await extractFacts(messages, 'Europe/Lisbon')
    expect(inline.length).toBeGreaterThan(1000)
    expect(split).toEqual(inline)
  }, 120_000)

  it('gives the same facts in the same order whatever share of them the thread takes', async () => {
    const messages = window(THREADED_EXTRACTION_MIN + 400)
    const inline = await extractFacts(messages, 'UTC')
    for (const share of [1, 0.25]) {
      expect(await prepareFactExtraction(0, 'UTC', NEVER).start(messages, share).finish()).toEqual(inline)
    }
  }, 120_000)

  it('uses a thread started early (the notes announced a large window) even when the window is small', async () => {
    const messages = window(300)
    const extractor = prepareFactExtraction(THREADED_EXTRACTION_MIN, 'UTC', NEVER)
    // The thread loads its libraries while the messages are "gathered".
    await new Promise((resolve) => setTimeout(resolve, 200))
    const facts = await extractor.start(messages).finish()
    extractor.stop()
    expect(facts).toEqual(await extractFacts(messages, 'UTC'))
  }, 120_000)

  it('ends a thread started early that the turn never used', async () => {
    const extractor = prepareFactExtraction(THREADED_EXTRACTION_MIN, 'UTC', NEVER)
    extractor.stop()
    // The thread is gone: handing it the window now fails instead of waiting forever.
    await expect(extractor.start(window(40)).finish()).rejects.toThrow('no longer needed')
  }, 120_000)

  it('stops the thread when the turn is aborted', async () => {
    const abort = new AbortController()
    const extraction = prepareFactExtraction(0, 'UTC', abort.signal).start(
      window(THREADED_EXTRACTION_MIN * 2 + 10),
    )
    abort.abort(new Error('cancelled'))
    await expect(extraction.finish()).rejects.toThrow('cancelled')
  }, 120_000)
})

describe('expectedUserMessages', () => {
  it("adds up the seeded notes' user counts and counts an unreadable note as none", () => {
    const notes = [
      noteWithUserCount('2026-11-20', 2857),
      noteWithUserCount('2026-11-21', 143),
      'no front matter',
    ]
    expect(expectedUserMessages(notes)).toBe(3000)
    expect(expectedUserMessages([])).toBe(0)
  })
})
