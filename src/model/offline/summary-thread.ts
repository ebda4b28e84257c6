// A long window's day summaries on both cores. Each day is handed to a thread of its own as soon as all its
// messages are read, oldest first, so the thread drafts while later pages are still being read. Once reading is
// done the engine's thread takes the latest days not handed over yet, and the two meet in the middle however fast
// each one is. A day's summary depends only on its messages and the window's word weights, which the thread is
// sent once they are complete, so the text is the same wherever it was made.
import { startThreadStream, threadModule, type ThreadStream } from '../../threads/thread-task.js'
import type { WindowMessage } from './types.js'
import type { WordCounts, WordWeights } from './word-weights.js'

/** From this many messages to summarise, days go to a thread of their own. */
export const THREADED_SUMMARIES_MIN = 50_000

/** Days handed over and not drafted yet: enough that the thread never waits while the engine's thread is busy. */
const AHEAD = 3

export interface DayJob {
  day: string
  messages: readonly WindowMessage[]
}

/** Engine → thread. */
export type ToSummaryThread =
  { type: 'day'; job: DayJob; timeZone: string } | { type: 'weights'; counts: WordCounts }

/** Thread → engine. */
export type FromSummaryThread =
  { type: 'drafted'; day: string } | { type: 'summary'; day: string; text: string }

interface Pending {
  resolve(text: string): void
  reject(error: unknown): void
  text: Promise<string>
}

function pending(): Pending {
  let resolve!: (text: string) => void
  let reject!: (error: unknown) => void
  const text = new Promise<string>((ok, fail) => {
    resolve = ok
    reject = fail
  })
  // Awaited when the writes reach the day; a turn that stops before then must not leave it unhandled.
  text.catch(() => undefined)
  return { resolve, reject, text }
}

export class SummaryThread {
  readonly #stream: ThreadStream<number>
  readonly #timeZone: string
  readonly #stopped = new AbortController()
  /** Offered and not handed over yet, oldest first. */
  readonly #waiting: DayJob[] = []
  /** Days handed over: how many messages each was handed with, and its summary to come. */
  readonly #handed = new Map<string, { messages: number; summary: Pending }>()
  readonly #arrived = new Map<string, string>()
  #drafting = 0
  #isClosed = false

  constructor(timeZone: string, signal: AbortSignal) {
    this.#timeZone = timeZone
    this.#stream = startThreadStream<number>(threadModule(import.meta.url, './summary-task'), {
      signal: AbortSignal.any([signal, this.#stopped.signal]),
      onMessage: (value) => this.#receive(value as FromSummaryThread),
    })
    // Whatever ends the thread, a summary still to come never will.
    this.#stream.result.then(
      () => this.#rejectAll(new Error('the summary thread ended without summarising every day it was given')),
      (error: unknown) => this.#rejectAll(error),
    )
  }

  /** A day whose messages are all read (oldest first): the thread drafts it when it is next free. */
  offer(job: DayJob): void {
    if (this.#isClosed || this.#handed.has(job.day)) return
    // A day offered again (more of its messages came later) replaces its earlier offer.
    const at = this.#waiting.findIndex((waiting) => waiting.day === job.day)
    if (at >= 0) this.#waiting[at] = job
    else this.#waiting.push(job)
    this.#handOver()
  }

  /** The window's word weights, complete: the thread finishes the days it drafted. */
  sendWeights(weights: WordWeights): void {
    this.#stream.send({ type: 'weights', counts: weights.counts() } satisfies ToSummaryThread)
  }

  /** The latest day not handed over, for the engine's thread to summarise itself; null when none is left. */
  takeLatest(): DayJob | null {
    return this.#waiting.pop() ?? null
  }

  /** No more days: the thread summarises what it holds and ends. */
  close(): void {
    if (this.#isClosed) return
    this.#isClosed = true
    this.#waiting.length = 0
    this.#stream.end()
  }

  /** Whether the thread makes `day`'s summary from exactly `messages` messages. */
  holds(day: string, messages: number): boolean {
    return this.#handed.get(day)?.messages === messages
  }

  /** The summary of a day the thread holds, if it has arrived. */
  summaryNow(day: string): string | undefined {
    return this.#arrived.get(day)
  }

  /** The summary the thread makes of a day it holds. */
  summaryOf(day: string): Promise<string> {
    const handed = this.#handed.get(day)
    return handed ? handed.summary.text : Promise.reject(new Error(`the summary thread was not given ${day}`))
  }

  /** Ends the thread if it is still running (the turn stopped early). */
  stop(): void {
    this.#stopped.abort(new Error('the day summaries are no longer needed'))
  }

  #handOver(): void {
    while (this.#drafting < AHEAD && this.#waiting.length > 0) {
      const job = this.#waiting.shift()!
      this.#handed.set(job.day, { messages: job.messages.length, summary: pending() })
      this.#drafting += 1
      this.#stream.send({ type: 'day', job, timeZone: this.#timeZone } satisfies ToSummaryThread)
    }
  }

  #receive(message: FromSummaryThread): void {
    if (message.type === 'drafted') {
      this.#drafting -= 1
      this.#handOver()
    } else {
      this.#arrived.set(message.day, message.text)
      this.#handed.get(message.day)?.summary.resolve(message.text)
    }
  }

  #rejectAll(error: unknown): void {
    for (const { summary } of this.#handed.values()) summary.reject(error)
  }
}
