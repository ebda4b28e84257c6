// The "Noted" section of a daily note: where an assistant's explicit "remember this" lands, above the summary.
import { NoteMalformedError } from '../errors.js'
import { parseDailyNote, renderDailyNote, type DailyNote } from './daily-note.js'
import { insertUnderHeading } from './markdown.js'

export const NOTED_HEADING = '## Noted'

/**
 * `existing` (or a fresh note for `day` when null) with `entry` appended under "## Noted". The section lives in
 * the note's preface, which seeding and dreams carry over untouched and recall counts as interactive text.
 * Continuation lines are indented so the entry stays one list item and can never read as a heading.
 */
export function withNotedEntry(
  existing: string | null,
  day: string,
  timeZone: string,
  entry: { time: string; text: string },
): string {
  const note = existing === null ? emptyDailyNote(day, timeZone) : parseExisting(existing, day)
  const [first = '', ...rest] = entry.text.trim().split(/\r?\n/)
  const lines = [`- ${entry.time} ${first}`, ...rest.map((line) => (line.trim() === '' ? '' : `  ${line}`))]
  return renderDailyNote({ ...note, preface: insertUnderHeading(note.preface, NOTED_HEADING, lines).trim() })
}

function parseExisting(text: string, day: string): DailyNote {
  const path = `notes/daily/${day}.md`
  const note = parseDailyNote(text, path)
  if (note.frontMatter.date !== day)
    throw new NoteMalformedError(path, `its front matter date is ${note.frontMatter.date}, not ${day}`)
  return note
}

/** What seeding would start from: no messages counted yet, the summary still to write. */
function emptyDailyNote(day: string, timeZone: string): DailyNote {
  return {
    frontMatter: {
      date: day,
      summarised_until: null,
      messages_total: 0,
      messages_user: 0,
      messages_assistant: 0,
      session_trees: 0,
      session_chats: 0,
      first_message: null,
      last_message: null,
      scope_mode: 'local-day',
      scope_anchor: `${day} ${timeZone}`,
    },
    extraFrontMatter: [],
    preface: '',
    warning: null,
    cues: null,
    sections: [{ updateTime: null, text: '', isPending: true }],
  }
}
