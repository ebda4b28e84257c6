// Prune & Index, notes/memory/days/: a distilled page for each important day (see isImportantDay) — what was
// learned and the day in brief. Sparse on purpose; text around the dream's block is kept.
import { longDateTitle } from '../../time/local-day.js'
import { writeBlock } from './block.js'
import { buildDaySummary } from './daily-summary.js'
import { distinctFacts, factLabel } from './digest.js'
import type { Fact, WindowMessage } from './types.js'

export const DAY_BLOCK = 'day'

export interface DayPageInput {
  day: string
  facts: readonly Fact[]
  messages: readonly WindowMessage[]
  factsByMessage: ReadonlyMap<string, readonly Fact[]>
  timeZone: string
}

/** The days/ page for `input.day`: a new page, or `existing` with its block rewritten. */
export function renderDayPage(existing: string | null, input: DayPageInput): string {
  const learned = distinctFacts(input.facts)
  const body = [`Daily note: [[${input.day}]] (notes/daily/${input.day}.md)`, '', '## Learned', '']
  for (const fact of learned) body.push(`- ${factLabel(fact, 200)} → ${fact.file}`)
  body.push('', '## The day in brief', '')
  const { messages, factsByMessage, timeZone } = input
  body.push(buildDaySummary({ messages, facts: factsByMessage, timeZone, maxLinesPerTree: 2 }))
  const base = existing ?? `# ${longDateTitle(input.day)}\n`
  return writeBlock(base, DAY_BLOCK, body.join('\n'))
}
