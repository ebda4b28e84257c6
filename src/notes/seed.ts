// Seeds notes/daily/<day>.md for every local day of a window that has messages, streaming the window once.
import type { PrivacyRules } from '../privacy/rules.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { DbWait } from '../db/busy.js'
import type { MessagesDb } from '../db/messages.js'
import { NoteMalformedError } from '../errors.js'
import type { DayWindow } from '../time/local-day.js'
import { readDailyNoteFile } from './daily-files.js'
import { parseDailyNote } from './daily-note.js'
import { gatherPlanOf } from './day-aggregator.js'
import { dailyNotePath, type WorkspacePaths } from './paths.js'
import { gatherDays, type GatherInput } from './seed-gather.js'
import { watermarkOf } from './seed-note.js'
import { SeedWriter, type Existing, type SeededDay, type SeedProblem } from './seed-writer.js'

export type { SeedOutcome, SeededDay, SeedProblem } from './seed-writer.js'

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
  /** What the notes must not see: excluded chats, private stretches, forgotten sentences. @default none */
  privacy?: PrivacyRules
}

export interface SeedResult {
  days: SeededDay[]
  /** Absolute paths written. */
  changed: string[]
  problems: SeedProblem[]
  /** Things about the messages DB worth knowing that stop nothing (say epoch-number timestamps). */
  warnings: string[]
}

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
  const plan = gatherPlanOf(window, watermarks, input.config.seeding, input.privacy)
  // Each day's note is written as soon as its day is gathered, while threads still read the rest of the window.
  const writer = new SeedWriter(paths, window.timeZone, existing)
  let gathered
  try {
    gathered = await gatherDays({
      messages: input.messages,
      plan,
      onDay: (day) => writer.write(day),
      ...(input.threads !== undefined ? { threads: input.threads } : {}),
      ...(input.gatherElsewhere ? { gatherElsewhere: input.gatherElsewhere } : {}),
      ...(input.dbWait ? { dbWait: input.dbWait } : {}),
    })
  } catch (error) {
    await writer.settle() // nothing is written after this rejects
    throw error
  }
  const result: SeedResult = { days: [], changed: [], problems: [], warnings: [] }
  const unreadable = input.messages.countNonIsoTimestamps()
  if (unreadable > 0)
    result.warnings.push(
      `${unreadable} message(s) in ${input.messages.file} have a timestamp that is not ISO 8601 (epoch ` +
        'numbers?) and fall outside every window; dreamlane reads ISO 8601 UTC text (`dreamlane import` ' +
        'converts epoch seconds/milliseconds)',
    )
  const onDone = (day: string, done: number) => input.onProgress?.(day, done, gathered.length)
  for (const { day, problem, isChanged } of await writer.finish(gathered, onDone)) {
    result.days.push(day)
    if (problem) result.problems.push(problem)
    if (isChanged) result.changed.push(day.path)
  }
  return result
}
