// Prune & Index, current-state.md: dated plans from project.md (with what they replaced) and the state of
// the window's open threads, and the days that still need work. Everything outside its block is kept.
import { writeBlock } from '../../notes/owned-block.js'
import { escapeInline, parseEntries, type MemoryEntry } from './memory-file.js'
import { plural, truncateWords } from './text.js'
import type { Fact } from './types.js'

export const STATE_BLOCK = 'current-state'

/** What the run knows about one window day after summarising. */
export interface DayStatus {
  /** 'complete' | 'partial' | 'unsummarised' | 'missing_watermark', or 'no messages' / 'unreadable'. */
  state: string
  messages: number
}

export interface CurrentStateInput {
  /** The window's days, oldest first. */
  days: readonly string[]
  status: ReadonlyMap<string, DayStatus>
  /** project.md after this run's merge: the source of dated plans. */
  projectText: string
  /** Plans listed: this many at most. @default 8 */
  maxPlans?: number
  /** Ongoing work the window's messages mention ("still waiting for the visa"), oldest first. */
  threads?: readonly Fact[]
}

/** Open threads listed at most, newest first: older ones live in their daily notes. */
const MAX_THREADS = 3

const DATE = /^(\d{4}-\d{2}-\d{2})/

function planLine(entry: MemoryEntry, older: readonly MemoryEntry[], today: string): string {
  const date = DATE.exec(entry.value ?? '')?.[1] ?? ''
  const history = older.map((old) => `was ${old.value} (superseded ${old.supersededOn})`).join('; ')
  const past = date < today ? ' (past)' : ''
  return `- ${entry.visible}${past}${history === '' ? '' : ` · ${history}`}`
}

/** Current plans dated on or after the window's first day, soonest first, each with its superseded dates. */
export function datedPlans(projectText: string, fromDay: string, today: string, max = 12): string[] {
  const entries = parseEntries(projectText).filter((entry) => entry.key.startsWith('plan.'))
  const current = entries
    .filter((entry) => entry.supersededOn === null && DATE.test(entry.value ?? ''))
    .filter((entry) => (entry.value ?? '').slice(-10) >= fromDay)
    .sort((a, b) =>
      (a.value ?? '') < (b.value ?? '') ? -1 : (a.value ?? '') > (b.value ?? '') ? 1 : a.line - b.line,
    )
  return current.slice(0, max).map((entry) => {
    const older = entries.filter((old) => old.key === entry.key && old.supersededOn !== null)
    return planLine(entry, older, today)
  })
}

/** Unfinished days listed at most; the rest are counted. */
const MAX_DAY_ROWS = 7

/** current-state.md with its block rewritten for this window; everything else in the file is kept. */
export function renderCurrentState(existing: string, input: CurrentStateInput): string {
  const first = input.days[0] ?? ''
  const today = input.days.at(-1) ?? ''
  const plans = datedPlans(input.projectText, today, today, input.maxPlans ?? 8)
  const body = ['## Upcoming', '']
  body.push(...(plans.length > 0 ? plans : ['- nothing dated from today on']))
  const threads = [...(input.threads ?? [])]
    .reverse()
    .filter((fact, index, all) => all.findIndex((other) => other.key === fact.key) === index)
  if (threads.length > 0) {
    body.push('', '## Open threads', '')
    for (const thread of threads.slice(0, MAX_THREADS))
      body.push(`- ${escapeInline(truncateWords(thread.text, 120))} [[${thread.day}]]`)
  }
  // Days that still need work are listed; finished and quiet days are only counted.
  const withMessages = input.days.filter((day) => (input.status.get(day)?.messages ?? 0) > 0)
  const open = [...input.days]
    .reverse()
    .map((day) => ({ day, status: input.status.get(day) ?? { state: 'no messages', messages: 0 } }))
    .filter(({ status }) => status.state !== 'complete' && status.state !== 'no messages')
  body.push('', `## Days ${first} → ${today}`, '')
  const done = withMessages.filter((day) => input.status.get(day)?.state === 'complete').length
  body.push(`- ${plural(withMessages.length, 'day')} with messages, ${done} complete`)
  for (const { day, status } of open.slice(0, MAX_DAY_ROWS))
    body.push(`- ${day}: ${status.state}, ${plural(status.messages, 'message')}`)
  if (open.length > MAX_DAY_ROWS) body.push(`- and ${open.length - MAX_DAY_ROWS} more not complete`)
  return writeBlock(existing, STATE_BLOCK, body.join('\n'))
}
