// Day summaries of a long window, in a thread of their own (see summary-thread.ts): each day is drafted as it
// arrives, and finished once the window's word weights do.
import { lowerThreadPriority } from '../../threads/thread-priority.js'
import { serveThreadStream } from '../../threads/thread-task.js'
import { composeDaySummary, draftDaySummary, type DayDraft } from './daily-summary.js'
import type { FromSummaryThread, ToSummaryThread } from './summary-thread.js'
import { WordWeights } from './word-weights.js'

// Background work like the engine's own thread: the event loop's thread gets a core first.
lowerThreadPriority()

serveThreadStream(async (values, post) => {
  const send = (message: FromSummaryThread): void => post(message)
  const drafts = new Map<string, { draft: DayDraft; timeZone: string }>()
  let weights: WordWeights | null = null
  let summarised = 0
  const finish = async (day: string, draft: DayDraft, timeZone: string): Promise<void> => {
    send({ type: 'summary', day, text: await composeDaySummary(draft, { timeZone, weights: weights! }) })
    summarised += 1
  }
  for await (const value of values) {
    const message = value as ToSummaryThread
    if (message.type === 'weights') {
      weights = new WordWeights(message.counts)
      for (const [day, { draft, timeZone }] of drafts) await finish(day, draft, timeZone)
      drafts.clear()
      continue
    }
    const { job, timeZone } = message
    const draft = await draftDaySummary(job.messages, timeZone)
    send({ type: 'drafted', day: job.day })
    if (weights) await finish(job.day, draft, timeZone)
    else drafts.set(job.day, { draft, timeZone })
  }
  if (drafts.size > 0) throw new Error('the summary thread never got the word weights')
  return summarised
})
