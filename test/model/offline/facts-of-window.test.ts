// A large window's facts, extracted partly in a thread of their own, are exactly the facts extracted inline.
import { describe, expect, it } from 'vitest'
import { extractFacts } from '../../../src/model/offline/extract.js'
import { startFactExtraction, THREADED_EXTRACTION_MIN } from '../../../src/model/offline/facts-of-window.js'
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

describe('startFactExtraction', () => {
  it('gives a large window the same facts in the same order as inline extraction', async () => {
    const messages = window(THREADED_EXTRACTION_MIN * 2 + 10)
    const split = await startFactExtraction(messages, 'Europe/Lisbon', new AbortController().signal).finish()
    const inline = await extractFacts(messages, 'Europe/Lisbon')
    expect(inline.length).toBeGreaterThan(1000)
    expect(split).toEqual(inline)
  }, 120_000)

  it('stops the thread when the turn is aborted', async () => {
    const abort = new AbortController()
    const extraction = startFactExtraction(window(THREADED_EXTRACTION_MIN * 2 + 10), 'UTC', abort.signal)
    abort.abort(new Error('cancelled'))
    await expect(extraction.finish()).rejects.toThrow('cancelled')
  }, 120_000)
})
