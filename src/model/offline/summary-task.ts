// Day summaries of a long window, in a thread of their own (see summary-thread.ts).
import { serveThreadTask } from '../../threads/thread-task.js'
import { buildDaySummary } from './daily-summary.js'
import type { SummaryTask } from './summary-thread.js'
import { WordWeights } from './word-weights.js'

serveThreadTask(async (data) => {
  const { days, timeZone, counts } = data as SummaryTask
  const weights = new WordWeights(counts)
  const summaries: [string, string][] = []
  for (const { day, messages } of days) {
    summaries.push([day, await buildDaySummary({ messages, timeZone, weights })])
  }
  return summaries
})
