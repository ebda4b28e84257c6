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
import { SummaryThread, THREADED_SUMMARIES_MIN } from './summary-thread.js'
import { yieldToLoop } from './yield.js'
import type { WordWeights } from './word-weights.js'
import { DAILY_DIR } from './orient.js'
import type { PendingWrite, ToolClient } from './tool-client.js'
import type { WindowMessage } from './types.js'

export interface DayOutcome {
  day: string
  before: DayState
  after: DayState
  /** Messages the new summary text covers. */
  covered: number
  isWritten: boolean
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

/** A planned day that needs a summary. */
type SummarisedDay = PlannedDay & { plan: { kind: 'summarise' } }

interface ParsedNote {
  day: string
  path: string
  text: string
  note: DailyNote
}

export interface SummariesPlan {
  dailyNotes: ReadonlyMap<string, string>
  timeZone: string
  /** Messages to summarise from which days go to a thread. @default THREADED_SUMMARIES_MIN */
  threadedMin?: number
}

/** Summarises the window's days: some while the messages are still being read, the rest once they all are. */
export interface DaySummariser {
  /** A day whose messages are all read; a long window's thread may start on it now. */
  offer(day: string, messages: readonly WindowMessage[]): void
  /** Summarises every in-window daily note that is not complete and writes it; complete notes are not touched. */
  finish(
    messagesByDay: ReadonlyMap<string, readonly WindowMessage[]>,
    weights: WordWeights,
  ): Promise<DayOutcome[]>
  /** Whether days are summarised on a thread too, for a window of `messages` (a thread already started is used). */
  usesThreadFor(messages: number): boolean
  /** Ends the thread if it is still running (the turn stopped early). */
  stop(): void
}

/** Messages the seeded notes of incomplete days count: a large window's thread can start before any is read. */
function expectedToSummarise(notes: readonly ParsedNote[]): number {
  return notes
    .filter(({ note }) => dayStateOf(note) !== 'complete')
    .reduce((total, { note }) => total + note.frontMatter.messages_total, 0)
}

/** Lets messages from the summary thread in between the engine's own days (a microtask would not). */
const letMessagesIn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export function prepareSummaries(client: ToolClient, input: SummariesPlan): DaySummariser {
  const notes: ParsedNote[] = []
  for (const [day, text] of [...input.dailyNotes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = `${DAILY_DIR}/${day}.md`
    try {
      notes.push({ day, path, text, note: parseDailyNote(text, path) })
    } catch (error) {
      if (!(error instanceof NoteMalformedError)) throw error
      client.problems.push(`${path}: ${error.message}; left as it is`)
    }
  }
  const { timeZone } = input
  const threadedMin = input.threadedMin ?? THREADED_SUMMARIES_MIN
  const startThread = (): SummaryThread => new SummaryThread(timeZone, client.signal)
  let thread = expectedToSummarise(notes) >= threadedMin ? startThread() : null
  const noteOf = new Map(notes.map((parsed) => [parsed.day, parsed.note]))
  return {
    offer: (day, messages) => {
      const note = noteOf.get(day)
      const plan = note === undefined ? null : planDay(note, messages)
      if (plan?.kind === 'summarise') thread?.offer({ day, messages: plan.pending })
    },
    finish: async (messagesByDay, weights) => {
      const planned = notes.map((parsed) => ({
        ...parsed,
        plan: planDay(parsed.note, messagesByDay.get(parsed.day) ?? []),
      }))
      const jobs = planned.flatMap(({ day, plan }) =>
        plan.kind === 'summarise' ? [{ day, messages: plan.pending }] : [],
      )
      const total = jobs.reduce((sum, job) => sum + job.messages.length, 0)
      if (thread === null && total >= threadedMin) thread = startThread()
      const inline = (entry: SummarisedDay): Promise<string> =>
        buildDaySummary({ messages: entry.plan.pending, timeZone, weights })
      const writes = new DayWrites(client, planned)
      if (thread === null) return writes.finish(inline)
      const held = thread
      // Days the reading never saw end (the last one, or any read out of order) are offered now.
      for (const job of jobs) if (!held.holds(job.day, job.messages.length)) held.offer(job)
      held.sendWeights(weights)
      const own = new Map<string, string>()
      const heldText = (entry: SummarisedDay): string | undefined =>
        own.get(entry.day) ??
        (held.holds(entry.day, entry.plan.pending.length) ? held.summaryNow(entry.day) : undefined)
      for (let job = held.takeLatest(); job !== null; job = held.takeLatest()) {
        own.set(job.day, await buildDaySummary({ messages: job.messages, timeZone, weights }))
        await letMessagesIn()
        // The oldest days are the thread's: their notes are written while the engine works back from the latest.
        await writes.sendReady(heldText)
      }
      held.close()
      return writes.finish(
        (entry) =>
          heldText(entry) ??
          (held.holds(entry.day, entry.plan.pending.length) ? held.summaryOf(entry.day) : inline(entry)),
      )
    },
    usesThreadFor: (messages) => thread !== null || messages >= threadedMin,
    stop: () => thread?.stop(),
  }
}

/** Notes written in flight at once: each write's disk syncs overlap the next day's work. */
const WRITES_IN_FLIGHT = 4

/** The daily notes' writes, sent in day order, a few in flight at once, their outcomes taken in the same order. */
class DayWrites {
  readonly #client: ToolClient
  readonly #planned: readonly PlannedDay[]
  readonly #outcomes: DayOutcome[] = []
  readonly #inFlight: {
    write: PendingWrite
    outcome: Omit<DayOutcome, 'after' | 'isWritten'>
    next: DailyNote
  }[] = []
  /** The first planned day not sent yet. */
  #next = 0

  constructor(client: ToolClient, planned: readonly PlannedDay[]) {
    this.#client = client
    this.#planned = planned
  }

  /** Sends the next days in order for as long as their summaries are at hand. */
  async sendReady(summaryNow: (entry: SummarisedDay) => string | undefined): Promise<void> {
    for (let entry = this.#planned[this.#next]; entry !== undefined; entry = this.#planned[this.#next]) {
      const summary = entry.plan.kind === 'summarise' ? summaryNow(entry as SummarisedDay) : ''
      if (summary === undefined) return
      await this.#send(entry, summary)
    }
  }

  /** Sends every day left, waiting for each summary in turn, and returns all outcomes in day order. */
  async finish(summaryOf: (entry: SummarisedDay) => Promise<string> | string): Promise<DayOutcome[]> {
    for (let entry = this.#planned[this.#next]; entry !== undefined; entry = this.#planned[this.#next]) {
      // Summarising a busy day is CPU work: let chat turns and status requests in between days.
      await yieldToLoop()
      await this.#send(entry, entry.plan.kind === 'summarise' ? await summaryOf(entry as SummarisedDay) : '')
    }
    while (this.#inFlight.length > 0) await this.#takeOldest()
    return this.#outcomes
  }

  async #send({ day, path, text, note, plan }: PlannedDay, summary: string): Promise<void> {
    this.#next += 1
    const before = dayStateOf(note)
    if (plan.kind === 'none') {
      // In order behind the writes still in flight.
      while (this.#inFlight.length > 0) await this.#takeOldest()
      this.#outcomes.push({ day, before, after: before, covered: 0, isWritten: false })
      return
    }
    const next = plan.kind === 'summarise' ? summarisedNote(plan.note, plan.pending, summary) : plan.note
    const covered = plan.kind === 'summarise' ? plan.pending.length : 0
    const write = this.#client.beginWrite(path, text, renderDailyNote(next))
    this.#inFlight.push({ write, outcome: { day, before, covered }, next })
    if (this.#inFlight.length >= WRITES_IN_FLIGHT) await this.#takeOldest()
  }

  async #takeOldest(): Promise<void> {
    const { write, outcome, next } = this.#inFlight.shift()!
    const written = await write.finish()
    const after = written === 'refused' ? outcome.before : dayStateOf(next)
    this.#outcomes.push({ ...outcome, after, isWritten: written === 'written' })
  }
}
