// Worker thread: gathers one run of a window's days on its own read-only connection to the messages DB, and
// posts each day as it is done; the main thread only writes the notes.
import { openMessagesDb } from '../db/messages.js'
import { serveThreadTask } from '../threads/thread-task.js'
import {
  DayAggregator,
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
    const own = new DayAggregator(plan, ranges[index] as DayRange)
    const read = readBoundsOf(plan, ranges[index] as DayRange)
    for (const message of messages.iterateLongWindow(new Date(read.start), new Date(read.end))) {
      const ms = Date.parse(message.timestamp)
      if (own.covers(ms)) own.add(message, ms)
      else if (isInWindow(plan, ms) && !isReadByOwner(plan, ranges, ms, message.timestamp))
        return { escaped: true }
    }
    for (const day of own.gathered()) post({ type: 'day', day })
    return { escaped: false }
  } finally {
    messages.close()
  }
}

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

serveThreadTask((data, post) => gatherRange(data as SeedThreadTask, post))
