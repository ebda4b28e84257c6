// Builds the seeded version of one day's note from its message aggregates and the note already on disk.
import { localTimeOf } from '../time/local-day.js'
import {
  dayStateOf,
  mainSectionOf,
  WARNING_PREFIX,
  type DailyNote,
  type DayState,
  type SummarySection,
} from './daily-note.js'
import type { GatheredDay } from './day-aggregator.js'

/**
 * The instant the existing summary covers, in ms — only when there is summary text and a watermark;
 * without text (unsummarised) or without summarised_until (missing_watermark) the whole day is the slice.
 */
export function watermarkOf(note: DailyNote | null): number | null {
  const main = note && mainSectionOf(note)
  const until = note?.frontMatter.summarised_until ?? null
  if (!main || main.isPending || main.text === '' || until === null) return null
  return Date.parse(until)
}

function warningFor(state: DayState, aggregate: GatheredDay, timeZone: string): string {
  const total = aggregate.counts.total
  if (state === 'unsummarised') {
    return `${WARNING_PREFIX} — seeded from ${total} messages; a dream has not summarised it yet.`
  }
  if (state === 'missing_watermark') {
    return `${WARNING_PREFIX} — the summary has no summarised_until; check it covers all ${total} messages, then set it.`
  }
  const after = aggregate.slice
  if (after.first === null) return `${WARNING_PREFIX} — a summary update is still pending.`
  const since = localTimeOf(new Date(after.first), timeZone)
  return `${WARNING_PREFIX} — ${after.total} of ${total} messages (from ${since}) are not summarised yet.`
}

function seededSections(
  existing: DailyNote | null,
  aggregate: GatheredDay,
  timeZone: string,
): SummarySection[] {
  const sections = (existing?.sections ?? []).map((section) => ({ ...section }))
  const main = sections.find((section) => section.updateTime === null)
  if (!main) sections.unshift({ updateTime: null, text: '', isPending: true })
  else if (main.text === '') main.isPending = true
  const firstAfter = aggregate.slice.first
  const hasPendingUpdate = sections.some((section) => section.updateTime !== null && section.isPending)
  if (aggregate.watermarkMs !== null && firstAfter !== null && !hasPendingUpdate) {
    sections.push({ updateTime: localTimeOf(new Date(firstAfter), timeZone), text: '', isPending: true })
  }
  return sections
}

/**
 * The note for `day` as seeding leaves it: fresh counts, title and links, markers and (while not complete)
 * warning and cues; summary text, extra front matter and any preface are carried over untouched.
 */
export function buildSeededNote(
  day: string,
  timeZone: string,
  aggregate: GatheredDay,
  existing: DailyNote | null,
): DailyNote {
  const tally = aggregate.counts
  const note: DailyNote = {
    frontMatter: {
      date: day,
      summarised_until: existing?.frontMatter.summarised_until ?? null,
      messages_total: tally.total,
      messages_user: tally.user,
      messages_assistant: tally.assistant,
      session_trees: tally.trees,
      session_chats: tally.chats,
      first_message: tally.first,
      last_message: tally.last,
      scope_mode: 'local-day',
      scope_anchor: `${day} ${timeZone}`,
    },
    extraFrontMatter: existing?.extraFrontMatter ?? [],
    preface: existing?.preface ?? '',
    warning: null,
    cues: null,
    sections: seededSections(existing, aggregate, timeZone),
  }
  const state = dayStateOf(note)
  if (state === 'complete') return note
  return { ...note, warning: warningFor(state, aggregate, timeZone), cues: aggregate.cues }
}
