// Orders a memory file's keyed facts by importance and keeps the faded ones under `## Archive`: a fact whose
// importance fell below the floor moves there (into a `### <its section>` group), whole and with its key
// comment, and moves back to its section once it is stated again. Nothing is deleted; other lines stay put.
// Facts that last (lasting-facts.ts) keep their importance, so they never fade and an archived one comes back out.
import { isBelowFloor, lineImportance, type FreshnessParams } from './fact-freshness.js'
import { isLastingFact, type FreshnessFile } from './lasting-facts.js'

export const ARCHIVE_HEADING = '## Archive'

const HEADING = /^(#{1,3}) +(\S.*?)\s*$/
const KEYED_BULLET = /^\s*[-*+] .*<!--\s*key:[^>]*-->\s*$/
const SUPERSEDED = /;\s*superseded:|^\s*[-*+] ~~/

interface Heading {
  level: number
  title: string
}

function headingOf(line: string): Heading | null {
  const match = HEADING.exec(line)
  return match ? { level: (match[1] as string).length, title: match[2] as string } : null
}

const isArchiveHeading = (line: string): boolean =>
  line.trim().toLowerCase() === ARCHIVE_HEADING.toLowerCase()

/** A current (not superseded) keyed bullet: the only lines freshness ever moves. */
export function isCurrentFactLine(line: string): boolean {
  return KEYED_BULLET.test(line) && !SUPERSEDED.test(line)
}

/** End (exclusive) of the section opened by the heading at `start`: the next heading of its level or above. */
function sectionEnd(lines: readonly string[], start: number): number {
  const level = headingOf(lines[start] ?? '')?.level ?? 2
  for (let i = start + 1; i < lines.length; i++) {
    const heading = headingOf(lines[i] ?? '')
    if (heading && heading.level <= level) return i
  }
  return lines.length
}

/** Level-1/2 headings' blocks: [heading line, end) up to the next level-1/2 heading. */
function blocks(lines: readonly string[]): { start: number; end: number; title: string }[] {
  const found: { start: number; end: number; title: string }[] = []
  lines.forEach((line, index) => {
    const heading = headingOf(line)
    if (!heading || heading.level > 2) return
    const last = found.at(-1)
    if (last) last.end = index
    found.push({ start: index, end: lines.length, title: heading.title })
  })
  return found
}

/** Inserts `added` after the last non-blank line of the section [start, end), like insertUnderHeading. */
function insertInSection(lines: string[], start: number, end: number, added: readonly string[]): void {
  let at = end
  while (at > start + 1 && (lines[at - 1] ?? '').trim() === '') at--
  const insert = at === start + 1 ? ['', ...added] : [...added]
  if (at < lines.length && (lines[at] ?? '').trim() !== '') insert.push('')
  if (at === lines.length) insert.push('')
  lines.splice(at, 0, ...insert)
}

/** Removes line `index`; when it sat between blank lines (or a blank line and the end), one blank goes too. */
function removeLine(lines: string[], index: number): void {
  const before = lines[index - 1]
  const after = lines[index + 1]
  const isBlankAround =
    before !== undefined && before.trim() === '' && (after === undefined || after.trim() === '')
  lines.splice(index, isBlankAround && after !== undefined ? 2 : 1)
}

function findArchive(lines: readonly string[]): number {
  return lines.findIndex(isArchiveHeading)
}

function ensureArchive(lines: string[]): number {
  const found = findArchive(lines)
  if (found !== -1) return found
  while (lines.length > 1 && lines.at(-1) === '' && (lines.at(-2) ?? '').trim() === '') lines.pop()
  const hasEndNewline = lines.at(-1) === ''
  if (hasEndNewline) lines.pop()
  lines.push(...(lines.length > 0 ? [''] : []), ARCHIVE_HEADING, '')
  return lines.length - 2
}

/** Appends `facts` to the archive's `### title` group, creating the archive and the group when missing. */
function archive(lines: string[], title: string, facts: readonly string[]): void {
  const start = ensureArchive(lines)
  const end = sectionEnd(lines, start)
  const group = lines.findIndex(
    (line, index) =>
      index > start && index < end && headingOf(line)?.level === 3 && headingOf(line)?.title === title,
  )
  if (group !== -1) {
    insertInSection(lines, group, sectionEnd(lines, group), facts)
    return
  }
  let at = end
  while (at > start + 1 && (lines[at - 1] ?? '').trim() === '') at--
  const insert = [...(at === start + 1 ? [] : ['']), `### ${title}`, '', ...facts]
  if (at === start + 1) insert.unshift('')
  if (at === lines.length || (lines[at] ?? '').trim() !== '') insert.push('')
  lines.splice(at, 0, ...insert)
}

/** Puts `facts` back at the end of the section titled `title` (made before the archive when it is gone). */
function revive(lines: string[], title: string | null, facts: readonly string[]): void {
  const archiveAt = findArchive(lines)
  const sections = blocks(lines).filter((block) => block.start !== archiveAt)
  const target =
    sections.find((block) => title !== null && block.title.toLowerCase() === title.toLowerCase()) ??
    (title === null ? sections.filter((block) => block.start < archiveAt).at(-1) : undefined)
  if (target) {
    insertInSection(lines, target.start, target.end, facts)
    return
  }
  const at = archiveAt === -1 ? lines.length : archiveAt
  lines.splice(at, 0, `## ${title ?? 'Facts'}`, '', ...facts, '')
}

/**
 * Removes archive groups that revival left with no line (their heading and the blank under it), and the
 * `## Archive` heading itself once nothing is left under it.
 */
function dropEmptyGroups(lines: string[]): void {
  const start = findArchive(lines)
  if (start === -1) return
  for (let index = sectionEnd(lines, start) - 1; index > start; index--) {
    if (headingOf(lines[index] ?? '')?.level !== 3) continue
    const end = sectionEnd(lines, index)
    if (lines.slice(index + 1, end).some((line) => line.trim() !== '')) continue
    lines.splice(index, end - index)
  }
  const end = sectionEnd(lines, start)
  if (lines.slice(start + 1, end).some((line) => line.trim() !== '')) return
  lines.splice(start, end - start)
  // At the end of the file, the blank line that set the heading off goes too: one newline ends the file.
  while (lines.length > 1 && lines.at(-1) === '' && (lines.at(-2) ?? '').trim() === '') lines.pop()
  if (lines.length > 0 && lines.at(-1) !== '') lines.push('')
}

/** A keyed line's importance under the section (or archive group) titled `section`; null when undated. */
type ImportanceOf = (line: string, section: string | null) => number | null

interface Move {
  index: number
  line: string
  /** Section title the fact belongs to (its heading, or its archive group). */
  title: string | null
}

/** Which lines leave their section for the archive and which come back out, decided on the file as it is. */
function planMoves(lines: readonly string[], importanceOf: ImportanceOf, params: FreshnessParams) {
  const archiveAt = findArchive(lines)
  const archiveEnd = archiveAt === -1 ? -1 : sectionEnd(lines, archiveAt)
  const toArchive: Move[] = []
  const toRevive: Move[] = []
  let title: string | null = null
  let group: string | null = null
  lines.forEach((line, index) => {
    const heading = headingOf(line)
    const isInArchive = archiveAt !== -1 && index > archiveAt && index < archiveEnd
    if (heading) {
      if (heading.level <= 2) title = heading.title
      group = isInArchive && heading.level === 3 ? heading.title : isInArchive ? group : null
      return
    }
    if (!isCurrentFactLine(line)) return
    const importance = importanceOf(line, isInArchive ? group : title)
    if (importance === null) return
    const isFaded = isBelowFloor(importance, params)
    if (isInArchive && !isFaded) toRevive.push({ index, line, title: group })
    // A fact above every heading has no section to come back to: it stays where it is.
    else if (!isInArchive && isFaded && title !== null) toArchive.push({ index, line, title })
  })
  return { toArchive, toRevive }
}

function groupByTitle(moves: readonly Move[]): Map<string | null, string[]> {
  const grouped = new Map<string | null, string[]>()
  for (const move of moves) grouped.set(move.title, [...(grouped.get(move.title) ?? []), move.line])
  return grouped
}

/** The current facts of lines [start, end) of the section titled `title`, in order of importance. */
function orderRange(lines: string[], start: number, end: number, title: string, importanceOf: ImportanceOf) {
  const slots: { index: number; line: string; importance: number }[] = []
  for (let index = start; index < end; index++) {
    const line = lines[index] ?? ''
    if (!isCurrentFactLine(line)) continue
    const importance = importanceOf(line, title)
    if (importance !== null) slots.push({ index, line, importance })
  }
  const sorted = [...slots].sort((a, b) => b.importance - a.importance || a.index - b.index)
  slots.forEach((slot, at) => {
    lines[slot.index] = (sorted[at] as (typeof sorted)[number]).line
  })
}

/**
 * Each section's current facts in order of importance (highest first; equals keep their order), within each
 * `###` group: a person's facts under `### Ula (sister)` never trade places with another person's.
 */
function orderSections(lines: string[], importanceOf: ImportanceOf): void {
  const archiveAt = findArchive(lines)
  for (const block of blocks(lines)) {
    if (block.start === archiveAt) continue
    let groupStart = block.start + 1
    for (let index = block.start + 1; index <= block.end; index++) {
      if (index < block.end && headingOf(lines[index] ?? '')?.level !== 3) continue
      orderRange(lines, groupStart, index, block.title, importanceOf)
      groupStart = index + 1
    }
  }
}

/**
 * `text`, the fact file `file`, with its current keyed facts ordered by importance on `today`, faded ones moved
 * under `## Archive` and reinforced or lasting ones moved back. Pure and idempotent: the same text and day give the
 * same result, and a second pass changes nothing. Lines without a key comment, superseded entries and undated facts
 * stay put.
 */
export function refreshFactFile(
  text: string,
  today: string,
  params: FreshnessParams,
  file: FreshnessFile,
): string {
  const lasting: FreshnessParams = { ...params, halfLifeDays: 0 }
  const cache = new Map<string, number | null>()
  const importanceOf: ImportanceOf = (line, section) => {
    const isLasting = isLastingFact(file, section, line)
    const cached = `${isLasting}\n${line}`
    if (!cache.has(cached)) cache.set(cached, lineImportance(line, today, isLasting ? lasting : params))
    return cache.get(cached) ?? null
  }
  const lines = text.split('\n')
  const { toArchive, toRevive } = planMoves(lines, importanceOf, params)
  const moved = [...toArchive, ...toRevive].sort((a, b) => b.index - a.index)
  for (const move of moved) removeLine(lines, move.index)
  for (const [title, facts] of groupByTitle(toRevive)) revive(lines, title, facts)
  if (toRevive.length > 0) dropEmptyGroups(lines)
  for (const [title, facts] of groupByTitle(toArchive)) archive(lines, title ?? 'Facts', facts)
  orderSections(lines, importanceOf)
  return lines.join('\n')
}
