// The offline engine's extract of one day, for draft_day (tools/draft-day.ts): a model improves on it rather than
// starting from nothing. Words are weighed over the whole window, read once per drafter (one per dream).
import type { FlatPageMessage } from '../../tools/message-json.js'
import type { DayDrafter } from '../../tools/types.js'
import { buildDaySummary, weightsOf } from './daily-summary.js'
import { toWindowMessage } from './gather.js'
import type { WindowMessage } from './types.js'
import type { WordWeights } from './word-weights.js'

export function offlineDayDrafter(timeZone: string): DayDrafter {
  let weights: Promise<WordWeights> | undefined
  const messagesOf = (rows: readonly FlatPageMessage[]): WindowMessage[] =>
    rows.flatMap((row) => toWindowMessage(row, timeZone) ?? [])
  return {
    async draft(day, readWindow) {
      if (weights === undefined) {
        weights = readWindow().then((rows) => weightsOf(messagesOf(rows)))
        // A failed read is not kept: the next call reads again.
        weights.catch(() => (weights = undefined))
      }
      return buildDaySummary({ messages: messagesOf(day), timeZone, weights: await weights })
    },
  }
}
