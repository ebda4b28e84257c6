// A long window's day summaries on both cores: the later days (about half the messages) are summarised in a thread
// of their own while the engine's thread summarises the earlier ones, so by the time the writes reach the later
// days their text is ready. Each day's summary depends only on its messages and the window's word weights, which
// the thread is sent, so the text is the same wherever it was made.
import { runThreadTask, threadModule } from '../../threads/thread-task.js'
import type { WindowMessage } from './types.js'
import type { WordCounts, WordWeights } from './word-weights.js'

/** From this many messages to summarise, the later days go to a thread of their own. */
export const THREADED_SUMMARIES_MIN = 50_000

export interface SummaryTask {
  days: { day: string; messages: readonly WindowMessage[] }[]
  timeZone: string
  counts: WordCounts
}

export interface DayJob {
  day: string
  messages: readonly WindowMessage[]
}

export interface SummaryThread {
  /** Days the thread summarises. */
  days: ReadonlySet<string>
  /** The thread's summaries by day. */
  summaries: Promise<Map<string, string>>
  /** Ends the thread if it is still running (the turn stopped early). */
  stop(): void
}

/** The latest days that together hold about half of the messages. */
function laterHalf(jobs: readonly DayJob[]): DayJob[] {
  const total = jobs.reduce((sum, job) => sum + job.messages.length, 0)
  const later: DayJob[] = []
  let taken = 0
  for (let at = jobs.length - 1; at > 0 && taken + jobs[at]!.messages.length <= total / 2; at--) {
    later.unshift(jobs[at]!)
    taken += jobs[at]!.messages.length
  }
  return later
}

/**
 * Starts summarising the later days of `jobs` (oldest first) in a thread when they hold at least `minMessages`
 * messages in all; null when the window is too small for a thread to pay off.
 */
export function startSummaryThread(
  jobs: readonly DayJob[],
  input: { timeZone: string; weights: WordWeights; signal: AbortSignal; minMessages?: number },
): SummaryThread | null {
  const total = jobs.reduce((sum, job) => sum + job.messages.length, 0)
  if (total < (input.minMessages ?? THREADED_SUMMARIES_MIN)) return null
  const offloaded = laterHalf(jobs)
  if (offloaded.length === 0) return null
  const stopped = new AbortController()
  const task: SummaryTask = {
    days: offloaded,
    timeZone: input.timeZone,
    counts: input.weights.counts(),
  }
  const summaries = runThreadTask<[string, string][]>(threadModule(import.meta.url, './summary-task'), task, {
    signal: AbortSignal.any([input.signal, stopped.signal]),
  }).then((pairs) => new Map(pairs))
  // Awaited when the writes reach the later days; a turn that stops before then must not leave it unhandled.
  summaries.catch(() => undefined)
  return {
    days: new Set(offloaded.map((job) => job.day)),
    summaries,
    stop: () => stopped.abort(new Error('the day summaries are no longer needed')),
  }
}
