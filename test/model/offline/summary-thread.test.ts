// A long window's days summarised on a thread of their own, alongside the engine's thread, read exactly as when
// summarised inline.
import { describe, expect, it } from 'vitest'
import { buildDaySummary, weightsOf } from '../../../src/model/offline/daily-summary.js'
import { SummaryThread, type DayJob } from '../../../src/model/offline/summary-thread.js'
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

/** Plays a window's reading: every day but the last offered as it is read, then the engine takes the latest. */
async function summariseAlongside(jobs: DayJob[], timeZone: string) {
  const weights = await weightsOf(jobs.flatMap((job) => job.messages))
  const thread = new SummaryThread(timeZone, NEVER)
  for (const job of jobs.slice(0, -1)) thread.offer(job)
  thread.offer(jobs.at(-1)!)
  thread.sendWeights(weights)
  const own = new Map<string, string>()
  for (let job = thread.takeLatest(); job !== null; job = thread.takeLatest()) {
    own.set(job.day, await buildDaySummary({ messages: job.messages, timeZone, weights }))
    await new Promise((resolve) => setImmediate(resolve))
  }
  thread.close()
  return { thread, own, weights }
}

describe('SummaryThread', () => {
  it('drafts the earliest days as they are offered while the engine takes the latest: every summary as inline', async () => {
    const jobs = days(10, 40)
    const { thread, own, weights } = await summariseAlongside(jobs, 'Europe/Lisbon')
    const threaded = jobs.filter((job) => thread.holds(job.day, job.messages.length))
    // Both sides worked, the thread on the oldest days and the engine on the latest, and no day on both.
    expect(threaded.length).toBeGreaterThanOrEqual(3)
    expect(own.size).toBeGreaterThan(0)
    expect(threaded.length + own.size).toBe(jobs.length)
    expect(threaded.map((job) => job.day)).toEqual(jobs.slice(0, threaded.length).map((job) => job.day))
    for (const job of jobs) {
      const inline = await buildDaySummary({ messages: job.messages, timeZone: 'Europe/Lisbon', weights })
      expect(inline).not.toBe('')
      const made = own.get(job.day) ?? (await thread.summaryOf(job.day))
      expect(made, job.day).toBe(inline)
    }
  }, 120_000)

  it('lets a day offered again with more messages replace its offer, and holds only the count it was given', async () => {
    const jobs = days(6, 20)
    const weights = await weightsOf(jobs.flatMap((job) => job.messages))
    const thread = new SummaryThread('UTC', NEVER)
    const first = jobs[0]!
    thread.offer({ day: first.day, messages: first.messages.slice(0, 5) })
    // The first three go straight to the thread; what waits behind them can still be replaced.
    for (const job of jobs.slice(1, 3)) thread.offer(job)
    const late = jobs[4]!
    thread.offer({ day: late.day, messages: late.messages.slice(0, 3) })
    thread.offer(late)
    expect(thread.holds(first.day, 5)).toBe(true)
    expect(thread.holds(first.day, first.messages.length)).toBe(false)
    thread.sendWeights(weights)
    const taken: string[] = []
    for (let job = thread.takeLatest(); job !== null; job = thread.takeLatest()) {
      taken.push(job.day)
      expect(job.messages).toHaveLength(jobs.find((each) => each.day === job!.day)!.messages.length)
    }
    thread.close()
    expect(taken.filter((day) => day === late.day).length).toBeLessThanOrEqual(1)
    const partial = await buildDaySummary({ messages: first.messages.slice(0, 5), timeZone: 'UTC', weights })
    expect(await thread.summaryOf(first.day)).toBe(partial)
  }, 120_000)

  it('rejects every summary still to come when the turn stops using the thread', async () => {
    const jobs = days(6, 30)
    const thread = new SummaryThread('UTC', NEVER)
    for (const job of jobs) thread.offer(job)
    thread.stop()
    await expect(thread.summaryOf(jobs[0]!.day)).rejects.toThrow('no longer needed')
    await expect(thread.summaryOf('2020-01-01')).rejects.toThrow('not given')
  }, 120_000)

  it('rejects the summaries of a thread that never gets the word weights', async () => {
    const jobs = days(2, 10)
    const thread = new SummaryThread('UTC', NEVER)
    for (const job of jobs) thread.offer(job)
    thread.close()
    await expect(thread.summaryOf(jobs[0]!.day)).rejects.toThrow('never got the word weights')
  }, 120_000)
})
