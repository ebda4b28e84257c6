// How common each word is in the user's own chats just before a window. A nightly dream's window is a day or two,
// too little to tell what the day was about from what every day says ("great", "sounds", the names of those
// talking); one dream over months of history knows it. These counts give the short window that knowledge.
import type { MessagesDb } from '../../db/messages.js'
import { TimeSlicer } from '../../time/slice.js'
import { termsOf, WordWeights, type WordCounts } from './word-weights.js'

/** Days before the window whose messages are counted. */
export const HISTORY_DAYS = 365
/** Messages counted at most, the latest first: a bound on the work whatever the user's volume. */
export const HISTORY_MESSAGES = 20_000

/** Word counts of up to HISTORY_MESSAGES messages of the HISTORY_DAYS before `start`; yields between slices. */
export async function wordHistoryBefore(messages: MessagesDb, start: Date): Promise<WordCounts> {
  const since = new Date(start.getTime() - HISTORY_DAYS * 86_400_000)
  const weights = new WordWeights()
  const slicer = new TimeSlicer()
  for (const content of await messages.contentsBetween(since, start, HISTORY_MESSAGES)) {
    weights.add(termsOf(content))
    await slicer.maybeYield()
  }
  return weights.counts()
}
