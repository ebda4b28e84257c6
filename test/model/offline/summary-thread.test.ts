// A long window's later days summarised in a thread of their own read exactly as when summarised inline.
import { describe, expect, it } from 'vitest'
import { buildDaySummary, weightsOf } from '../../../src/model/offline/daily-summary.js'
import { startSummaryThread, type DayJob } from '../../../src/model/offline/summary-thread.js'
import type { WindowMessage } from '../../../src/model/offline/types.js'
import { Prng } from '../../../src/sample/prng.js'

const SAID = [
  'I moved to Porto last month, the flat near the river.',
  'Our Atlas launch is on December 4, not November 27.',
  'Maya adopted a puppy called Miso on Saturday!',
  'We finally booked the ferry to Madeira for next Friday.',
  'Thanks, that sounds great.',
  'The dentist moved my appointment to 9:30 tomorrow.',
  'Rui ran the Lisbon half marathon in 1:52, a personal best.',
]

function days(count: number, perDay: number): DayJob[] {
  const prng = new Prng(21)
  return Array.from({ length: count }, (_, dayIndex) => {
    const day = `2026-10-${String(dayIndex + 1).padStart(2, '0')}`
    const size = perDay + Math.floor(prng.next() * perDay)
    const messages = Array.from({ length: size }, (_, index): WindowMessage => {
      const isUser = index % 2 === 0
      return {
        id: `${day}-${index}`,
        chat: 'web:main',
        root: 'web:main',
        chatName: 'main',
        ts: `${day}T${String(8 + (index % 12)).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}:00.000Z`,
        role: isUser ? 'user' : 'assistant',
        sender: isUser ? 'Maya' : 'Assistant',
        content: `${SAID[Math.floor(prng.next() * SAID.length)]} Note ${Math.floor(prng.next() * 500)}.`,
        day,
      }
    })
    return { day, messages }
  })
}

const NEVER = new AbortController().signal

describe('startSummaryThread', () => {
  it('summarises the later days holding at most half the messages, as inline summaries would', async () => {
    const jobs = days(8, 40)
    const weights = await weightsOf(jobs.flatMap((job) => job.messages))
    const thread = startSummaryThread(jobs, {
      timeZone: 'Europe/Lisbon',
      weights,
      signal: NEVER,
      minMessages: 10,
    })
    expect(thread).not.toBeNull()
    const offloaded = jobs.filter((job) => thread!.days.has(job.day))
    // The later days, contiguous, and no more than half of all messages.
    expect(offloaded.map((job) => job.day)).toEqual(
      jobs.slice(jobs.length - offloaded.length).map((job) => job.day),
    )
    const count = (list: DayJob[]): number => list.reduce((sum, job) => sum + job.messages.length, 0)
    expect(count(offloaded)).toBeGreaterThan(0)
    expect(count(offloaded)).toBeLessThanOrEqual(count(jobs) / 2)
    const summaries = await thread!.summaries
    expect([...summaries.keys()]).toEqual(offloaded.map((job) => job.day))
    for (const job of offloaded) {
      const inline = await buildDaySummary({ messages: job.messages, timeZone: 'Europe/Lisbon', weights })
      expect(inline).not.toBe('')
      expect(summaries.get(job.day)).toBe(inline)
    }
  }, 120_000)

  it('keeps a small window inline', async () => {
    const jobs = days(3, 5)
    const weights = await weightsOf(jobs.flatMap((job) => job.messages))
    expect(startSummaryThread(jobs, { timeZone: 'UTC', weights, signal: NEVER })).toBeNull()
  })

  it('ends the thread when the turn stops using it', async () => {
    const jobs = days(6, 30)
    const weights = await weightsOf(jobs.flatMap((job) => job.messages))
    const thread = startSummaryThread(jobs, { timeZone: 'UTC', weights, signal: NEVER, minMessages: 10 })
    thread!.stop()
    await expect(thread!.summaries).rejects.toThrow('no longer needed')
  }, 120_000)
})
