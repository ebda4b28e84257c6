// Seeds notes/daily/<day>.md for every local day of a window that has messages, streaming the window once.
import type { ResolvedConfig } from '../config/schema.js'
import type { DbWait } from '../db/busy.js'
import type { MessagesDb } from '../db/messages.js'
import { NoteMalformedError } from '../errors.js'
import type { DayWindow } from '../time/local-day.js'
import { writeFileAtomic } from './atomic-write.js'
import { readDailyNoteFile } from './daily-files.js'
import { dayStateOf, parseDailyNote, renderDailyNote, type DailyNote, type DayState } from './daily-note.js'
import { gatherPlanOf, type GatheredDay } from './day-aggregator.js'
import { dailyNotePath, type WorkspacePaths } from './paths.js'
import { gatherDays, type GatherInput } from './seed-gather.js'
import { buildSeededNote, watermarkOf } from './seed-note.js'

export interface SeedInput {
  paths: WorkspacePaths
  config: ResolvedConfig
  messages: MessagesDb
  /** Days and their bounds; its timeZone (normally config.timezone) decides which day a message is on. */
  window: DayWindow
  /** Called after each day with messages is handled; `done` counts from 1 up to `total`. */
  onProgress?: (day: string, done: number, total: number) => void
  /**
   * Worker threads to read the window in (each with its own read-only connection to `messages.file`); 0 reads on
   * this thread, yielding every few ms. Default: 0 for a window under 20,000 messages, else up to 2.
   */
  threads?: number
  /** With `threads` unset, gathers a window of 2,000 to 20,000 messages instead of this thread (see GatherInput). */
  gatherElsewhere?: GatherInput['gatherElsewhere']
  /** How long a thread waits on a messages DB another process holds, and where it says so. */
  dbWait?: DbWait
}

export type SeedOutcome = 'created' | 'updated' | 'unchanged' | 'skipped'

export interface SeededDay {
  day: string
  path: string
  /** The state the note is left in (a skipped note is reported as unsummarised). */
  state: DayState
  /** Messages on that local day. */
  messages: number
  outcome: SeedOutcome
}

export interface SeedProblem {
  path: string
  reason: string
}

export interface SeedResult {
  days: SeededDay[]
  /** Absolute paths written. */
  changed: string[]
  problems: SeedProblem[]
  /** Things about the messages DB worth knowing that stop nothing (say epoch-number timestamps). */
  warnings: string[]
}

type Existing = { text: string; note: DailyNote } | { problem: string } | null

/** The note on disk for `day`: null when there is none, a problem when it cannot be trusted. */
async function loadExisting(path: string, day: string): Promise<Existing> {
  try {
    const text = await readDailyNoteFile(path)
    if (text === null) return null
    const note = parseDailyNote(text, path)
    if (note.frontMatter.date !== day)
      return { problem: `front matter date '${note.frontMatter.date}' is not ${day}` }
    return { text, note }
  } catch (error) {
    if (error instanceof NoteMalformedError) return { problem: error.message.slice(path.length + 2) }
    throw error
  }
}

/**
 * Creates or refreshes the daily note of every window day that has messages. Summary text is never
 * touched; a note that cannot be parsed is reported in `problems` and left as it is; an unchanged note
 * is not rewritten.
 */
export async function seedDailyNotes(input: SeedInput): Promise<SeedResult> {
  const { paths, window } = input
  const existing = new Map<string, Existing>()
  const watermarks = new Map<string, number | null>()
  for (const day of window.days) {
    const loaded = await loadExisting(dailyNotePath(paths, day), day)
    existing.set(day, loaded)
    watermarks.set(day, loaded && 'note' in loaded ? watermarkOf(loaded.note) : null)
  }
  const plan = gatherPlanOf(window, watermarks, input.config.seeding)
  const aggregates = new Map<string, GatheredDay>()
  const gathered = await gatherDays({
    messages: input.messages,
    plan,
    ...(input.threads !== undefined ? { threads: input.threads } : {}),
    ...(input.gatherElsewhere ? { gatherElsewhere: input.gatherElsewhere } : {}),
    ...(input.dbWait ? { dbWait: input.dbWait } : {}),
  })
  for (const day of gathered) aggregates.set(day.day, day)
  const result: SeedResult = { days: [], changed: [], problems: [], warnings: [] }
  const unreadable = input.messages.countNonIsoTimestamps()
  if (unreadable > 0)
    result.warnings.push(
      `${unreadable} message(s) in ${input.messages.file} have a timestamp that is not ISO 8601 (epoch ` +
        'numbers?) and fall outside every window; dreamlane reads ISO 8601 UTC text (`dreamlane import` ' +
        'converts epoch seconds/milliseconds)',
    )
  const seededDays = window.days.filter((day) => aggregates.has(day))
  const seeded: SeededNote[] = []
  let reported = 0
  await forEachAtMost(seededDays, WRITES_AT_ONCE, async (day, position) => {
    const before = existing.get(day) ?? null
    seeded[position] = await seedNote(paths, window.timeZone, aggregates.get(day) as GatheredDay, before)
    // Progress in window order, as the notes before this one are done too.
    for (; seeded[reported] !== undefined; reported++)
      input.onProgress?.(seededDays[reported] as string, reported + 1, seededDays.length)
  })
  for (const { day, problem, isChanged } of seeded) {
    result.days.push(day)
    if (problem) result.problems.push(problem)
    if (isChanged) result.changed.push(day.path)
  }
  return result
}

/** Notes written at once: their reads, writes and fsyncs overlap on libuv's pool instead of queueing one by one. */
const WRITES_AT_ONCE = 8

interface SeededNote {
  day: SeededDay
  problem?: SeedProblem
  isChanged: boolean
}

async function seedNote(
  paths: WorkspacePaths,
  timeZone: string,
  aggregate: GatheredDay,
  before: Existing,
): Promise<SeededNote> {
  const day = aggregate.day
  const path = dailyNotePath(paths, day)
  const row = { day, path, messages: aggregate.counts.total }
  if (before && 'problem' in before) {
    return {
      day: { ...row, state: 'unsummarised', outcome: 'skipped' },
      problem: { path, reason: before.problem },
      isChanged: false,
    }
  }
  const note = buildSeededNote(day, timeZone, aggregate, before?.note ?? null)
  const outcome = await writeIfChanged(path, before?.text ?? null, renderDailyNote(note))
  if (outcome === 'skipped') {
    return {
      day: { ...row, state: 'unsummarised', outcome },
      problem: { path, reason: 'the note changed while seeding; left as it is for the next run' },
      isChanged: false,
    }
  }
  return { day: { ...row, state: dayStateOf(note), outcome }, isChanged: outcome !== 'unchanged' }
}

/** Runs `task` on every item, at most `limit` at a time; the first error is thrown once none is running. */
async function forEachAtMost<Item>(
  items: readonly Item[],
  limit: number,
  task: (item: Item, index: number) => Promise<void>,
): Promise<void> {
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async (): Promise<void> => {
    while (next < items.length && !failure) {
      const index = next++
      try {
        await task(items[index] as Item, index)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failure) throw failure.error
}

async function writeIfChanged(path: string, before: string | null, text: string): Promise<SeedOutcome> {
  if (before === text) return 'unchanged'
  // Someone (a person, an editor) may have saved the note since it was read: their bytes win.
  let current: string | null
  try {
    current = await readDailyNoteFile(path)
  } catch (error) {
    if (error instanceof NoteMalformedError) return 'skipped'
    throw error
  }
  if (current !== before) return 'skipped'
  await writeFileAtomic(path, text)
  return before === null ? 'created' : 'updated'
}
