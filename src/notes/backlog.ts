// The daily-note backlog: notes in notes/daily that still need a summary (or cannot be read at all).
import { NoteMalformedError } from '../errors.js'
import { listDailyNoteDays, readDailyNoteFileNow } from './daily-files.js'
import { dayStateOf, parseDailyNote, type DailyNote, type DayState } from './daily-note.js'
import { dailyNotePath, type WorkspacePaths } from './paths.js'

/** A day state, or `malformed` for a note whose front matter cannot be trusted (it needs a person or a dream). */
export type BacklogState = Exclude<DayState, 'complete'> | 'malformed'

export interface BacklogEntry {
  day: string
  state: BacklogState
  /** Absolute path of the note. */
  path: string
  /** One line saying what is missing. */
  reason: string
}

function reasonFor(state: DayState, note: DailyNote): string {
  const { summarised_until: until, last_message: last, messages_total: total } = note.frontMatter
  if (state === 'unsummarised') return `no summary yet for ${total} messages (NEEDS_SUMMARY)`
  if (state === 'missing_watermark') return 'summary written but summarised_until is not set'
  const pending = note.sections.find((section) => section.updateTime !== null && section.isPending)
  if (pending) return `summary update (${pending.updateTime}) pending (NEEDS_SUMMARY_UPDATE)`
  return `summarised_until ${until} is before last_message ${last}`
}

/**
 * Daily notes that are not complete, oldest first: with `days`, only those days' notes (days without a
 * note are not listed); without, every note in notes/daily.
 */
export async function readBacklog(paths: WorkspacePaths, days?: string[]): Promise<BacklogEntry[]> {
  const wanted = days ? [...new Set(days)].sort() : await listDailyNoteDays(paths)
  return wanted
    .map((day) => backlogEntryOf(paths, day))
    .filter((entry): entry is BacklogEntry => entry !== null)
}

/** The day's backlog entry, or null when its note is complete or missing. */
function backlogEntryOf(paths: WorkspacePaths, day: string): BacklogEntry | null {
  const path = dailyNotePath(paths, day)
  let note: DailyNote
  try {
    const text = readDailyNoteFileNow(path)
    if (text === null) return null
    note = parseDailyNote(text, path)
  } catch (error) {
    if (!(error instanceof NoteMalformedError)) throw error
    return { day, state: 'malformed', path, reason: error.message.slice(path.length + 2) }
  }
  if (note.frontMatter.date !== day) {
    return {
      day,
      state: 'malformed',
      path,
      reason: `front matter date '${note.frontMatter.date}' is not ${day}`,
    }
  }
  const state = dayStateOf(note)
  return state === 'complete' ? null : { day, state, path, reason: reasonFor(state, note) }
}
