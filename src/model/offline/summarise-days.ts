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
import { startSummaryThread, type SummaryThread } from './summary-thread.js'
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
  /** Messages to summarise from which the later days go to a thread. @default THREADED_SUMMARIES_MIN */
  threadedMin?: number
}

/** What one day's note needs: nothing, a stamped watermark, or a summary of its pending messages. */
type DayPlan =
  | { kind: 'none' }
  | { kind: 'stamp'; note: DailyNote }
  | { kind: 'summarise'; note: DailyNote; pending: WindowMessage[] }

function planDay(note: DailyNote, messages: readonly WindowMessage[]): DayPlan {
  const state = dayStateOf(note)
  if (state === 'complete') return { kind: 'none' }
  const watermark = note.frontMatter.summarised_until
  const after = watermark === null ? Infinity : Date.parse(watermark)
  // With no watermark every message is new; with one, only those after it.
  const pending = messages.filter((message) => watermark === null || Date.parse(message.ts) > after)
  if (state === 'missing_watermark') {
    // Someone wrote a summary without stamping it: it stands for the day as it was; stamp the last message.
    const last = note.frontMatter.last_message
    if (last === null) return { kind: 'none' }
    return { kind: 'stamp', note: { ...note, frontMatter: { ...note.frontMatter, summarised_until: last } } }
  }
  if (pending.length === 0) return { kind: 'none' }
  return { kind: 'summarise', note, pending }
}

function summarisedNote(note: DailyNote, pending: readonly WindowMessage[], text: string): DailyNote {
  const lastTs = pending.reduce(
    (latest, message) => (Date.parse(message.ts) > Date.parse(latest) ? message.ts : latest),
    pending[0]!.ts,
  )
  return withSummary(note, text, lastTs)
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

interface PlannedDay {
  day: string
  path: string
  text: string
  note: DailyNote
  plan: DayPlan
}

/** Summarises every in-window daily note that is not complete; complete notes are not touched. */
export async function summariseDays(client: ToolClient, input: SummariseInput): Promise<DayOutcome[]> {
  const planned: PlannedDay[] = []
  for (const [day, text] of [...input.dailyNotes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = `${DAILY_DIR}/${day}.md`
    try {
      const note = parseDailyNote(text, path)
      planned.push({ day, path, text, note, plan: planDay(note, input.messagesByDay.get(day) ?? []) })
    } catch (error) {
      if (!(error instanceof NoteMalformedError)) throw error
      client.problems.push(`${path}: ${error.message}; left as it is`)
    }
  }
  const jobs = planned.flatMap(({ day, plan }) =>
    plan.kind === 'summarise' ? [{ day, messages: plan.pending }] : [],
  )
  const thread = startSummaryThread(jobs, {
    timeZone: input.timeZone,
    weights: input.weights,
    signal: client.signal,
    ...(input.threadedMin !== undefined ? { minMessages: input.threadedMin } : {}),
  })
  try {
    return await writeDays(client, input, planned, thread)
  } finally {
    thread?.stop()
  }
}

async function writeDays(
  client: ToolClient,
  input: SummariseInput,
  planned: readonly PlannedDay[],
  thread: SummaryThread | null,
): Promise<DayOutcome[]> {
  const outcomes: DayOutcome[] = []
  for (const { day, path, text, note, plan } of planned) {
    const before = dayStateOf(note)
    // Summarising a busy day is CPU work: let chat turns and status requests in between days.
    await yieldToLoop()
    if (plan.kind === 'none') {
      outcomes.push({ day, before, after: before, covered: 0, isWritten: false })
      continue
    }
    let next = plan.note
    let covered = 0
    if (plan.kind === 'summarise') {
      const summary = thread?.days.has(day)
        ? ((await thread.summaries).get(day) ?? '')
        : await buildDaySummary({ messages: plan.pending, timeZone: input.timeZone, weights: input.weights })
      next = summarisedNote(plan.note, plan.pending, summary)
      covered = plan.pending.length
    }
    const outcome = await client.writeIfChanged(path, text, renderDailyNote(next))
    const after = outcome === 'refused' ? before : dayStateOf(next)
    outcomes.push({ day, before, after, covered, isWritten: outcome === 'written' })
  }
  return outcomes
}
