import { describe, expect, it } from 'vitest'
import { NoteMalformedError } from '../../src/errors.js'
import {
  DAILY_FRONT_MATTER_KEYS,
  checkDailyNoteText,
  dayStateOf,
  parseDailyNote,
  renderDailyNote,
  withSummary,
} from '../../src/notes/daily-note.js'

const FRONT = `---
date: '2026-11-21'
summarised_until: null
messages_total: 34
messages_user: 18
messages_assistant: 16
session_trees: 2
session_chats: 3
first_message: '2026-11-21T08:02:11.000Z'
last_message: '2026-11-21T21:40:00.000Z'
scope_mode: local-day
scope_anchor: '2026-11-21 America/Los_Angeles'
---
`
const HEADER = `# Saturday, November 21, 2026

← [[2026-11-20]] | [[2026-11-22]] →

---

`
const WARNING = '> ⚠ **Incomplete daily note** — seeded from 34 messages; a dream has not summarised it yet.'
const CUES = '<!-- DREAM_CUES\nslice: a .. b\nDREAM_CUES -->'
const SEEDED = `${FRONT}${HEADER}${WARNING}\n\n${CUES}\n\n## Summary\n\n<!-- NEEDS_SUMMARY -->\n`

function withFront(text: string, changes: Record<string, string>): string {
  let result = text
  for (const [key, value] of Object.entries(changes))
    result = result.replace(new RegExp(`^${key}: .*$`, 'm'), `${key}: ${value}`)
  return result
}

describe('parseDailyNote / renderDailyNote', () => {
  it('reads every key, keeps date-like values as strings and renders the same bytes back', () => {
    const note = parseDailyNote(SEEDED, 'x.md')
    expect(note.frontMatter).toEqual({
      date: '2026-11-21',
      summarised_until: null,
      messages_total: 34,
      messages_user: 18,
      messages_assistant: 16,
      session_trees: 2,
      session_chats: 3,
      first_message: '2026-11-21T08:02:11.000Z',
      last_message: '2026-11-21T21:40:00.000Z',
      scope_mode: 'local-day',
      scope_anchor: '2026-11-21 America/Los_Angeles',
    })
    expect(Object.keys(note.frontMatter)).toEqual([...DAILY_FRONT_MATTER_KEYS])
    expect(note.warning).toBe(WARNING)
    expect(note.cues).toBe('slice: a .. b')
    expect(note.sections).toEqual([{ updateTime: null, text: '', isPending: true }])
    expect(renderDailyNote(note)).toBe(SEEDED)
  })

  it('reads an unquoted date as text, not a Date', () => {
    const note = parseDailyNote(
      withFront(SEEDED, { date: '2026-11-21', first_message: '2026-11-21T08:02:11Z' }),
      'x',
    )
    expect(note.frontMatter.date).toBe('2026-11-21')
    expect(note.frontMatter.first_message).toBe('2026-11-21T08:02:11Z')
  })

  it('keeps unknown front matter keys, a preface and hand-written sections verbatim', () => {
    const text = SEEDED.replace('scope_mode: local-day\n', "scope_mode: local-day\ntags: [trip, 'x']\n")
      .replace(WARNING, `A line someone added.\n\n${WARNING}`)
      .replace('<!-- NEEDS_SUMMARY -->', 'Went hiking.  \n\n### Details\n\n- boots -- wet\n')
    const note = parseDailyNote(text, 'x')
    expect(note.extraFrontMatter).toEqual(["tags: [trip, 'x']"])
    expect(note.preface).toBe('A line someone added.')
    expect(note.sections[0]).toEqual({
      updateTime: null,
      text: 'Went hiking.  \n\n### Details\n\n- boots -- wet',
      isPending: false,
    })
    const rendered = renderDailyNote(note)
    expect(rendered).toContain("tags: [trip, 'x']\n---\n")
    expect(renderDailyNote(parseDailyNote(rendered, 'x'))).toBe(rendered)
  })

  it('refuses a DREAM_CUES comment that is never closed', () => {
    expect(() => parseDailyNote(SEEDED.replace('DREAM_CUES -->', ''), 'notes/daily/x.md')).toThrow(
      NoteMalformedError,
    )
  })
})

describe('dayStateOf', () => {
  const summarised = SEEDED.replace('<!-- NEEDS_SUMMARY -->', 'A day of errands.')
  it.each([
    ['unsummarised: placeholder still there', SEEDED, 'unsummarised'],
    ['unsummarised: heading with no text', SEEDED.replace('<!-- NEEDS_SUMMARY -->', ''), 'unsummarised'],
    ['missing_watermark: text but no summarised_until', summarised, 'missing_watermark'],
    [
      'partial: watermark before last message',
      withFront(summarised, { summarised_until: "'2026-11-21T12:00:00.000Z'" }),
      'partial',
    ],
    [
      'partial: a pending update section',
      withFront(summarised, { summarised_until: "'2026-11-21T21:40:00.000Z'" }) +
        '\n## Summary update (13:40)\n\n<!-- NEEDS_SUMMARY_UPDATE -->\n',
      'partial',
    ],
    [
      'complete: watermark at last message',
      withFront(summarised, { summarised_until: "'2026-11-21T21:40:00.000Z'" }),
      'complete',
    ],
  ])('%s', (_name, text, state) => {
    expect(dayStateOf(parseDailyNote(text, 'x'))).toBe(state)
  })
})

describe('withSummary', () => {
  it('fills the placeholder, sets the watermark and drops warning and cues once complete', () => {
    const done = withSummary(parseDailyNote(SEEDED, 'x'), 'Planned the trip.\n', '2026-11-21T21:40:00Z')
    expect(dayStateOf(done)).toBe('complete')
    expect(done.frontMatter.summarised_until).toBe('2026-11-21T21:40:00.000Z')
    const text = renderDailyNote(done)
    expect(text).not.toContain('NEEDS_SUMMARY')
    expect(text).not.toContain('DREAM_CUES')
    expect(text).not.toContain('Incomplete daily note')
    expect(text.endsWith('## Summary\n\nPlanned the trip.\n')).toBe(true)
  })

  it('fills the pending update section and keeps the earlier summary', () => {
    const text =
      withFront(SEEDED.replace('<!-- NEEDS_SUMMARY -->', 'Morning: errands.'), {
        summarised_until: "'2026-11-21T12:00:00.000Z'",
      }) + '\n## Summary update (13:40)\n\n<!-- NEEDS_SUMMARY_UPDATE -->\n'
    const done = withSummary(parseDailyNote(text, 'x'), 'Evening: dinner.', '2026-11-21T21:40:00.000Z')
    expect(done.sections).toEqual([
      { updateTime: null, text: 'Morning: errands.', isPending: false },
      { updateTime: '13:40', text: 'Evening: dinner.', isPending: false },
    ])
    expect(dayStateOf(done)).toBe('complete')
  })

  it('keeps warning and cues while the watermark is still behind the last message', () => {
    const done = withSummary(parseDailyNote(SEEDED, 'x'), 'Morning only.', '2026-11-21T12:00:00.000Z')
    expect(dayStateOf(done)).toBe('partial')
    expect(done.warning).toBe(WARNING)
    expect(done.cues).toBe('slice: a .. b')
  })

  it('refuses a watermark that is not an ISO timestamp', () => {
    expect(() => withSummary(parseDailyNote(SEEDED, 'x'), 'x', 'yesterday')).toThrow(/ISO/)
  })
})

describe('checkDailyNoteText', () => {
  it('accepts a valid note for its day', () => {
    expect(checkDailyNoteText(SEEDED, '2026-11-21')).toBeNull()
  })

  it.each([
    ['another day', SEEDED, /date is '2026-11-21' but this note is for '2026-11-22'/, '2026-11-22'],
    ['a missing key', SEEDED.replace('messages_user: 18\n', ''), /missing "messages_user"/, '2026-11-21'],
    [
      'an unterminated quote',
      SEEDED.replace("date: '2026-11-21'", "date: '2026-11-21"),
      /date/,
      '2026-11-21',
    ],
    ['a non-date date', withFront(SEEDED, { date: "'Nov 21'" }), /"date" must be/, '2026-11-21'],
    ['a nested value', withFront(SEEDED, { messages_total: '[1, 2]' }), /messages_total/, '2026-11-21'],
    ['a negative count', withFront(SEEDED, { messages_total: '-3' }), /messages_total/, '2026-11-21'],
    [
      'a line that is not key: value',
      SEEDED.replace('scope_mode', 'scope_mode oops\nscope_mode'),
      /not "key: value"/,
      '2026-11-21',
    ],
    ['no front matter', SEEDED.slice(FRONT.length), /does not start/, '2026-11-21'],
    [
      'an unclosed front matter',
      SEEDED.replace(/\n---\n# Saturday/, '\n# Saturday'),
      /not closed|not "key: value"/,
      '2026-11-21',
    ],
    ['JavaScript front matter', `---js\n{ date: '2026-11-21' }\n---\n`, /does not start/, '2026-11-21'],
  ])('reports %s as a one-line reason', (_name, text, reason, day) => {
    const result = checkDailyNoteText(text, day)
    expect(result).toMatch(reason)
    expect(result).not.toContain('\n')
  })
})
