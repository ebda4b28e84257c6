// Gathers a window's days (counts and cues) for seeding: a small window on this thread, yielding as it reads; a
// large one in worker threads, each reading a run of days on its own read-only connection, so the event loop
// stays free for chat turns and HTTP requests however long the window.
import { availableParallelism } from 'node:os'
import type { DbWait } from '../db/busy.js'
import type { MessagesDb } from '../db/messages.js'
import { runThreadTask, threadModule } from '../threads/thread-task.js'
import { TimeSlicer } from '../time/slice.js'
import {
  DayAggregator,
  boundsOf,
  type DayRange,
  type GatheredDay,
  type GatherPlan,
} from './day-aggregator.js'
import type { SeedThreadMessage, SeedThreadOutcome, SeedThreadTask } from './seed-thread.js'

/** Below this many messages a window is gathered on the calling thread: starting a thread costs more. */
export const THREAD_MIN_MESSAGES = 20_000
/** With gatherElsewhere, a window of fewer messages still reads here: it takes only a few time slices. */
export const OFF_THREAD_MIN_MESSAGES = 2_000
/** Threads for the largest windows (reading the rows is most of the work, and it splits by days). */
const MAX_THREADS = 2
/** The window is counted in this many runs of days to split it into runs of about equal messages. */
const SEGMENTS = 32

const SEED_THREAD = threadModule(import.meta.url, './seed-thread')

export interface GatherInput {
  messages: MessagesDb
  plan: GatherPlan
  /** Threads to gather in: 0 gathers on this thread. Default: by the window's size (0 below THREAD_MIN_MESSAGES). */
  threads?: number
  /**
   * With `threads` unset, a window of OFF_THREAD_MIN_MESSAGES up to THREAD_MIN_MESSAGES is gathered by this instead
   * of on this thread (a dream's: on its long-lived reader thread, so chat turns never wait behind the reads).
   */
  gatherElsewhere?: (plan: GatherPlan) => Promise<GatheredDay[]>
  /**
   * Told of each day as soon as a thread has gathered it, in no set order, before gatherDays resolves; a day may be
   * told again from a second gathering (a split window read again whole). What gatherDays returns is final.
   */
  onDay?: (day: GatheredDay) => void
  /** How long a thread waits on a DB locked by another process, and where it says so. */
  dbWait?: DbWait
}

/** The window's days that have messages, in window order. */
export async function gatherDays(input: GatherInput): Promise<GatheredDay[]> {
  const { plan } = input
  const segments = segmentsOf(plan)
  // Counted only to choose how many threads, and where to split the window between them.
  const isCounted = input.threads === undefined || input.threads > 1
  const counts = isCounted ? await input.messages.countWindowInSegments(segmentBounds(plan, segments)) : []
  const total = counts.reduce((sum, count) => sum + count, 0)
  const threads = Math.min(plan.days.length, input.threads ?? threadsFor(total))
  if (
    threads === 0 &&
    input.gatherElsewhere &&
    input.threads === undefined &&
    total >= OFF_THREAD_MIN_MESSAGES
  )
    return input.gatherElsewhere(plan)
  if (threads === 0) return gatherHere(input.messages, plan)
  const whole: DayRange = { from: 0, to: plan.days.length }
  return (
    (await gatherInThreads(input, splitRanges(segments, counts, threads), true)) ??
    // A timestamp whose text is a day or more from its instant cannot be placed by a split window, nor by days
    // handed out early: read it whole, each day handed out at the end.
    ((await gatherInThreads(input, [whole], false)) as GatheredDay[])
  )
}

function threadsFor(total: number): number {
  if (total < THREAD_MIN_MESSAGES) return 0
  return Math.max(1, Math.min(MAX_THREADS, availableParallelism(), Math.floor(total / THREAD_MIN_MESSAGES)))
}

/** The window's days read on this thread, yielding every time slice. */
export async function gatherHere(messages: MessagesDb, plan: GatherPlan): Promise<GatheredDay[]> {
  const aggregator = new DayAggregator(plan)
  const { startMs, endMs } = boundsOf(plan, { from: 0, to: plan.days.length })
  const slicer = new TimeSlicer()
  const options = plan.privacy ? { privacy: plan.privacy } : {}
  for (const message of messages.iterateWindow(new Date(startMs), new Date(endMs), options)) {
    aggregator.add(message)
    if (slicer.isDue()) await slicer.yield()
  }
  return aggregator.gathered()
}

/** Each thread's days, gathered and concatenated in window order; null when a thread met an escaped timestamp. */
async function gatherInThreads(
  input: GatherInput,
  ranges: DayRange[],
  isEarly: boolean,
): Promise<GatheredDay[] | null> {
  const gathered = ranges.map((): GatheredDay[] => [])
  const stop = new AbortController()
  const onWait = input.dbWait?.onWait
  const run = (index: number): Promise<SeedThreadOutcome> => {
    const task: SeedThreadTask = {
      file: input.messages.file,
      ...(input.dbWait?.waitMs !== undefined ? { waitMs: input.dbWait.waitMs } : {}),
      plan: input.plan,
      ranges,
      index,
      isEarly,
    }
    const onMessage = (value: unknown): void => {
      const message = value as SeedThreadMessage
      if (message.type === 'day') {
        gathered[index]?.push(message.day)
        input.onDay?.(message.day)
      } else onWait?.({ waitedMs: message.waitedMs, holder: message.holder })
    }
    return runThreadTask<SeedThreadOutcome>(SEED_THREAD, task, { onMessage, signal: stop.signal }).catch(
      (error: unknown) => {
        stop.abort(error) // the first failure ends the other threads too
        throw error
      },
    )
  }
  const outcomes = await Promise.all(ranges.map((_, index) => run(index)))
  return outcomes.some((outcome) => outcome.escaped) ? null : gathered.flat()
}

/** Runs of days the window is counted in: `SEGMENTS` of them at most, each at least a day. */
function segmentsOf(plan: GatherPlan): DayRange[] {
  const days = plan.days.length
  const count = Math.min(days, SEGMENTS)
  return Array.from({ length: count }, (_, k) => ({
    from: Math.floor((k * days) / count),
    to: Math.floor(((k + 1) * days) / count),
  }))
}

function segmentBounds(plan: GatherPlan, segments: DayRange[]): Date[] {
  return [...segments.map((segment) => new Date(boundsOf(plan, segment).startMs)), new Date(plan.endMs)]
}

/** `threads` consecutive runs of whole segments with about equal message counts, none without days. */
export function splitRanges(segments: DayRange[], counts: readonly number[], threads: number): DayRange[] {
  const parts = Math.max(1, Math.min(threads, segments.length))
  const total = counts.reduce((sum, count) => sum + count, 0)
  const starts = [0] // the first segment of each run
  let next = 0
  let before = 0 // messages in the segments before `next`
  for (let part = 1; part < parts; part++) {
    const target = (total * part) / parts
    const lowest = (starts.at(-1) as number) + 1
    const highest = segments.length - (parts - part)
    while (next < lowest) before += counts[next++] ?? 0
    while (next < highest && Math.abs(before + (counts[next] ?? 0) - target) < Math.abs(before - target))
      before += counts[next++] ?? 0
    starts.push(next)
  }
  return starts.map((start, i) => ({
    from: (segments[start] as DayRange).from,
    to: (segments[(starts[i + 1] ?? segments.length) - 1] as DayRange).to,
  }))
}
