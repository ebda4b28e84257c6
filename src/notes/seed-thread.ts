// Worker thread: gathers one run of a window's days on its own read-only connection to the messages DB, and
// posts each day as it is done; the main thread only writes the notes.
import { openMessagesDb } from '../db/messages.js'
import { lowerThreadPriority } from '../threads/thread-priority.js'
import { serveThreadTask } from '../threads/thread-task.js'
import {
  DayAggregator,
  boundsOf,
  dayIndexOf,
  readBoundsOf,
  type DayRange,
  type GatheredDay,
  type GatherPlan,
} from './day-aggregator.js'

export interface SeedThreadTask {
  file: string
  waitMs?: number
  plan: GatherPlan
  /** Every thread's run of days, in window order; this thread gathers `ranges[index]`. */
  ranges: DayRange[]
  index: number
  /** Post each day as soon as no later row can fall on it, not all at the end. */
  isEarly?: boolean
}

/** Posted on the way: a gathered day, or a progress note while the DB is locked by someone else. */
export type SeedThreadMessage =
  { type: 'day'; day: GatheredDay } | { type: 'wait'; waitedMs: number; holder: string | null }

/** `escaped`: a message's timestamp text was too far from its instant for the split; gather in one run instead. */
export interface SeedThreadOutcome {
  escaped: boolean
}

function gatherRange(task: SeedThreadTask, post: (message: SeedThreadMessage) => void): SeedThreadOutcome {
  const { plan, ranges, index } = task
  const messages = openMessagesDb(task.file, {
    readonly: true,
    ...(task.waitMs !== undefined ? { waitMs: task.waitMs } : {}),
    onWait: (info) => post({ type: 'wait', ...info }),
  })
  try {
    const range = ranges[index] as DayRange
    const own = new DayAggregator(plan, range)
    const read = readBoundsOf(plan, range)
    const handOut = task.isEarly ? new EarlyHandOut(plan, range) : null
    const options = plan.privacy ? { privacy: plan.privacy } : {}
    for (const message of messages.iterateLongWindow(new Date(read.start), new Date(read.end), options)) {
      const ms = Date.parse(message.timestamp)
      if (own.covers(ms)) {
        if (own.isHandedOut(ms)) return { escaped: true } // its day was posted already
        own.add(message, ms)
      } else if (isInWindow(plan, ms) && !isReadByOwner(plan, ranges, ms, message.timestamp))
        return { escaped: true }
      if (handOut && message.timestamp >= handOut.nextText)
        for (const day of own.takeDaysEndingBy(handOut.passed(message.timestamp))) post({ type: 'day', day })
    }
    for (const day of own.gathered()) post({ type: 'day', day })
    return { escaped: false }
  } finally {
    messages.close()
  }
}

/**
 * When days can be handed out early. Rows come in timestamp-text order, and a text's instant is within a day of
 * the text read as UTC (larger gaps are escapes), so once the text reaches a day's end plus two days, no later row
 * falls on that day.
 */
class EarlyHandOut {
  readonly #ends: number[]
  #next = 0
  /** Text that, once reached, hands out the next day. */
  nextText: string

  constructor(plan: GatherPlan, range: DayRange) {
    this.#ends = Array.from(
      { length: range.to - range.from },
      (_, k) => boundsOf(plan, { from: range.from + k, to: range.from + k + 1 }).endMs,
    )
    this.nextText = this.#textFor(0)
  }

  /** The instant up to which days can be handed out now that the text has reached `text`. */
  passed(text: string): number {
    while (this.#next < this.#ends.length && text >= this.nextText)
      this.nextText = this.#textFor(++this.#next)
    return this.#next === 0 ? -Infinity : (this.#ends[this.#next - 1] as number)
  }

  #textFor(index: number): string {
    const end = this.#ends[index]
    return end === undefined ? '\uffff' : new Date(end + HAND_OUT_AFTER_MS).toISOString()
  }
}

const HAND_OUT_AFTER_MS = 2 * 86_400_000

function isInWindow(plan: GatherPlan, ms: number): boolean {
  return ms >= (plan.starts[0] as number) && ms < plan.endMs
}

/** Whether the thread whose days hold `ms` reads `timestamp` too (so the message is counted exactly once). */
function isReadByOwner(plan: GatherPlan, ranges: DayRange[], ms: number, timestamp: string): boolean {
  const day = dayIndexOf(plan, ms)
  const owner = ranges.find((range) => day >= range.from && day < range.to)
  if (!owner) return false
  const read = readBoundsOf(plan, owner)
  return timestamp >= read.start && timestamp < read.end
}

// The event loop's thread comes first: with both cores reading, its timers would otherwise wait their turn.
lowerThreadPriority()
serveThreadTask((data, post) => gatherRange(data as SeedThreadTask, post))
