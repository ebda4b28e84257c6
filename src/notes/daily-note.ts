// One daily note: parse it (front matter + owned body parts), render it canonically, judge its state.
import { DreamlaneError, NoteMalformedError, errorMessage } from '../errors.js'
import { addDays, longDateTitle } from '../time/local-day.js'
import { isIsoInstant, parseFrontMatter, renderFrontMatter, type DailyFrontMatter } from './front-matter.js'

export { DAILY_FRONT_MATTER_KEYS, type DailyFrontMatter } from './front-matter.js'

export type DayState = 'unsummarised' | 'missing_watermark' | 'partial' | 'complete'

export const NEEDS_SUMMARY = '<!-- NEEDS_SUMMARY -->'
export const NEEDS_SUMMARY_UPDATE = '<!-- NEEDS_SUMMARY_UPDATE -->'
export const CUES_OPEN = '<!-- DREAM_CUES'
export const CUES_CLOSE = 'DREAM_CUES -->'
export const WARNING_PREFIX = '> ⚠ **Incomplete daily note**'

/** `## Summary` (updateTime null) or `## Summary update (HH:MM)`. */
export interface SummarySection {
  updateTime: string | null
  /** What a person or dream wrote, markers removed, blank lines around it trimmed; '' when empty. */
  text: string
  /** The section still holds its NEEDS_SUMMARY / NEEDS_SUMMARY_UPDATE marker. */
  isPending: boolean
}

export interface DailyNote {
  frontMatter: DailyFrontMatter
  /** Front matter lines with keys dreamlane does not own, kept verbatim after its own. */
  extraFrontMatter: string[]
  /** Text someone put between the header and the summary that is not dreamlane's; kept verbatim. */
  preface: string
  /** The warning line (without trailing newline), or null. */
  warning: string | null
  /** The lines inside the DREAM_CUES comment, or null when the note carries none. */
  cues: string | null
  /** The `## Summary` section first, then any `## Summary update (HH:MM)` sections, in file order. */
  sections: SummarySection[]
}

const SECTION_HEADING = /^## Summary(?: update \((\d{2}:\d{2})\))?[ \t]*$/
const LINKS_LINE = /^← \[\[[^\]]*\]\] \| \[\[[^\]]*\]\] →[ \t]*$/

function trimBlankLines(lines: string[]): string {
  let start = 0
  let end = lines.length
  while (start < end && (lines[start] as string).trim() === '') start++
  while (end > start && (lines[end - 1] as string).trim() === '') end--
  return lines.slice(start, end).join('\n')
}

const MARKER = /<!-- NEEDS_SUMMARY(?:_UPDATE)? -->/g

function readSection(updateTime: string | null, lines: string[]): SummarySection {
  let isPending = false
  const kept: string[] = []
  for (const line of lines) {
    const rest = line.replace(MARKER, '')
    if (rest === line) {
      kept.push(line)
      continue
    }
    isPending = true
    if (rest.trim() !== '') kept.push(rest)
  }
  return { updateTime, text: trimBlankLines(kept), isPending }
}

interface Header {
  preface: string
  warning: string | null
  cues: string | null
}

function readHeader(lines: string[], path: string): Header {
  const preface: string[] = []
  let warning: string | null = null
  let cues: string | null = null
  let hasTitle = false
  let hasLinks = false
  let hasRule = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    if (!hasTitle && line.startsWith('# ')) hasTitle = true
    else if (!hasLinks && LINKS_LINE.test(line)) hasLinks = true
    else if (!hasRule && line.trim() === '---') hasRule = true
    else if (warning === null && line.startsWith(WARNING_PREFIX)) warning = line.trimEnd()
    else if (cues === null && line.trim() === CUES_OPEN) {
      const close = lines.findIndex((candidate, j) => j > i && candidate.trim() === CUES_CLOSE)
      if (close === -1)
        throw new NoteMalformedError(path, 'the DREAM_CUES comment is not closed with "DREAM_CUES -->"')
      cues = lines.slice(i + 1, close).join('\n')
      i = close
    } else preface.push(line)
  }
  return { preface: trimBlankLines(preface), warning, cues }
}

/** Parses a daily note. Throws NoteMalformedError (with a one-line reason) when it cannot be trusted. */
export function parseDailyNote(text: string, path: string): DailyNote {
  let parsed
  try {
    // A byte-order mark some editors add would hide the opening "---".
    parsed = parseFrontMatter(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new NoteMalformedError(path, errorMessage(error), { cause: error })
  }
  const lines = parsed.body.split('\n')
  const first = lines.findIndex((line) => SECTION_HEADING.test(line))
  const header = readHeader(first === -1 ? lines : lines.slice(0, first), path)
  const sections: SummarySection[] = []
  if (first !== -1) {
    let heading = SECTION_HEADING.exec(lines[first] as string) as RegExpExecArray
    let body: string[] = []
    for (const line of lines.slice(first + 1)) {
      const next = SECTION_HEADING.exec(line)
      if (!next) {
        body.push(line)
        continue
      }
      sections.push(readSection(heading[1] ?? null, body))
      heading = next
      body = []
    }
    sections.push(readSection(heading[1] ?? null, body))
  }
  return { frontMatter: parsed.frontMatter, extraFrontMatter: parsed.extraLines, ...header, sections }
}

function renderSection(section: SummarySection): string {
  const heading = section.updateTime === null ? '## Summary' : `## Summary update (${section.updateTime})`
  const parts = [
    section.text,
    section.isPending ? (section.updateTime === null ? NEEDS_SUMMARY : NEEDS_SUMMARY_UPDATE) : '',
  ]
  const body = parts.filter((part) => part !== '').join('\n\n')
  return body === '' ? `${heading}\n` : `${heading}\n\n${body}\n`
}

/** The canonical text of a note; parse → render of a rendered note gives the same bytes. */
export function renderDailyNote(note: DailyNote): string {
  const day = note.frontMatter.date
  const blocks = [
    `# ${longDateTitle(day)}`,
    `← [[${addDays(day, -1)}]] | [[${addDays(day, 1)}]] →`,
    '---',
    note.preface,
    note.warning ?? '',
    note.cues === null ? '' : `${CUES_OPEN}\n${note.cues}\n${CUES_CLOSE}`,
  ].filter((block) => block !== '')
  const head = `${renderFrontMatter(note.frontMatter, note.extraFrontMatter)}${blocks.join('\n\n')}\n\n`
  return head + note.sections.map(renderSection).join('\n')
}

/** The `## Summary` section, if the note has one. */
export function mainSectionOf(note: DailyNote): SummarySection | undefined {
  return note.sections.find((section) => section.updateTime === null)
}

/** unsummarised → missing_watermark → partial → complete, in that order of precedence. */
export function dayStateOf(note: DailyNote): DayState {
  const main = mainSectionOf(note)
  if (!main || main.isPending || main.text.trim() === '') return 'unsummarised'
  const { summarised_until: until, last_message: last } = note.frontMatter
  if (until === null) return 'missing_watermark'
  if (note.sections.some((section) => section.isPending)) return 'partial'
  if (last !== null && Date.parse(until) < Date.parse(last)) return 'partial'
  return 'complete'
}

/**
 * null when `text` is a valid daily note for `expectedDay` (front matter parses, every key present,
 * `date` matches), else a one-line reason a model can act on.
 */
export function checkDailyNoteText(text: string, expectedDay: string): string | null {
  let note: DailyNote
  try {
    note = parseDailyNote(text, `notes/daily/${expectedDay}.md`)
  } catch (error) {
    const reason =
      error instanceof NoteMalformedError ? error.message.slice(error.path.length + 2) : errorMessage(error)
    return `${reason}; keep the front matter keys and a quoted date: '${expectedDay}'`
  }
  if (note.frontMatter.date !== expectedDay) {
    return `front matter date is '${note.frontMatter.date}' but this note is for '${expectedDay}'`
  }
  return null
}

/**
 * Fills the pending section (the `## Summary` placeholder, else the pending `## Summary update`) with
 * `summaryText`, removes its marker and sets `summarised_until`; a day that becomes complete loses its
 * warning and cues. Text already in the section is kept ahead of the new text, never replaced.
 */
export function withSummary(note: DailyNote, summaryText: string, summarisedUntil: string): DailyNote {
  if (!isIsoInstant(summarisedUntil)) {
    throw new DreamlaneError(
      'TOOL_INPUT_INVALID',
      `summarised_until must be an ISO UTC timestamp, got "${summarisedUntil}"`,
    )
  }
  const text = trimBlankLines(summaryText.replace(/\r\n/g, '\n').split('\n'))
  const sections = note.sections.map((section) => ({ ...section }))
  if (!sections.some((section) => section.updateTime === null)) {
    sections.unshift({ updateTime: null, text: '', isPending: true })
  }
  let index = sections.findIndex(
    (section) => section.updateTime === null && (section.isPending || section.text === ''),
  )
  if (index === -1) index = sections.findIndex((section) => section.isPending)
  if (index === -1) index = sections.length - 1
  const target = sections[index] as SummarySection
  sections[index] = {
    ...target,
    text: [target.text, text].filter((part) => part !== '').join('\n\n'),
    isPending: false,
  }
  const frontMatter = { ...note.frontMatter, summarised_until: new Date(summarisedUntil).toISOString() }
  const next: DailyNote = { ...note, frontMatter, sections }
  return dayStateOf(next) === 'complete' ? { ...next, warning: null, cues: null } : next
}
