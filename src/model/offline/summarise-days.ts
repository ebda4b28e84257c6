// Consolidate, daily notes: fills each incomplete day's pending summary with an extractive summary of the
// messages after its watermark, moves `summarised_until`, and writes the note back through the tools.
import { NoteMalformedError } from '../../errors.js'
import {
  dayStateOf,
  parseDailyNote,
  renderDailyNote,
  withSummary,
  type DailyNote,
  type DayState,
} from '../../notes/daily-note.js'
import { buildDaySummary } from './daily-summary.js'
import { yieldToLoop } from './yield.js'
import type { WordWeights } from './word-weights.js'
import { DAILY_DIR } from './orient.js'
import type { ToolClient } from './tool-client.js'
import type { WindowMessage } from './types.js'

export interface DayOutcome {
  day: string
  before: DayState
  after: DayState
  /** Messages the new summary text covers. */
  covered: number
  isWritten: boolean
}

export interface SummariseInput {
  dailyNotes: ReadonlyMap<string, string>
  messagesByDay: ReadonlyMap<string, readonly WindowMessage[]>
  timeZone: string
  /** Word weights over the whole window, so a day's rare words are rare across the window. */
  weights: WordWeights
}

// The note's next text, or null when it needs nothing: complete, or nothing left to cover.
async function summarised(
  note: DailyNote,
  messages: readonly WindowMessage[],
  input: SummariseInput,
): Promise<{ note: DailyNote; covered: number } | null> {
  const state = dayStateOf(note)
  if (state === 'complete') return null
  const watermark = note.frontMatter.summarised_until
  const after = watermark === null ? Infinity : Date.parse(watermark)
  // With no watermark every message is new; with one, only those after it.
  const pending = messages.filter((message) => watermark === null || Date.parse(message.ts) > after)
  if (state === 'missing_watermark') {
    // Someone wrote a summary without stamping it: it stands for the day as it was; stamp the last message.
    const last = note.frontMatter.last_message
    if (last === null) return null
    return { note: { ...note, frontMatter: { ...note.frontMatter, summarised_until: last } }, covered: 0 }
  }
  if (pending.length === 0) return null
  const text = await buildDaySummary({ messages: pending, timeZone: input.timeZone, weights: input.weights })
  const lastTs = pending.reduce(
    (latest, message) => (Date.parse(message.ts) > Date.parse(latest) ? message.ts : latest),
    pending[0]!.ts,
  )
  return { note: withSummary(note, text, lastTs), covered: pending.length }
}

/** Incomplete days (oldest first) with their watermark: what gathering must read before anything else. */
export function pendingDays(dailyNotes: ReadonlyMap<string, string>): Map<string, string | null> {
  const pending = new Map<string, string | null>()
  for (const [day, text] of [...dailyNotes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    try {
      const note = parseDailyNote(text, `${DAILY_DIR}/${day}.md`)
      if (dayStateOf(note) !== 'complete') pending.set(day, note.frontMatter.summarised_until)
    } catch (error) {
      if (!(error instanceof NoteMalformedError)) throw error
    }
  }
  return pending
}

/** Summarises every in-window daily note that is not complete; complete notes are not touched. */
export async function summariseDays(client: ToolClient, input: SummariseInput): Promise<DayOutcome[]> {
  const outcomes: DayOutcome[] = []
  for (const [day, text] of [...input.dailyNotes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = `${DAILY_DIR}/${day}.md`
    let note: DailyNote
    try {
      note = parseDailyNote(text, path)
    } catch (error) {
      if (!(error instanceof NoteMalformedError)) throw error
      client.problems.push(`${path}: ${error.message}; left as it is`)
      continue
    }
    const before = dayStateOf(note)
    // Summarising a busy day is CPU work: let chat turns and status requests in between days.
    await yieldToLoop()
    const next = await summarised(note, input.messagesByDay.get(day) ?? [], input)
    if (!next) {
      outcomes.push({ day, before, after: before, covered: 0, isWritten: false })
      continue
    }
    const outcome = await client.writeIfChanged(path, text, renderDailyNote(next.note))
    const after = outcome === 'refused' ? before : dayStateOf(next.note)
    outcomes.push({ day, before, after, covered: next.covered, isWritten: outcome === 'written' })
  }
  return outcomes
}
