// Which lines of which notes may become recall evidence, and the small block of text a hit stands for.
import { createHash } from 'node:crypto'

/**
 * Dream-written artifacts never count as recall, so dreams cannot feed themselves (OpenClaw promoted its own
 * dream output back into memory). Concretely, a hit is excluded when it lies in:
 * - `notes/memory/**`: MEMORY.md (the promotion target), the six other memory files and `days/*` pages are
 *   what dreams consolidate into; recalling them would re-promote the dream's own words;
 * - `notes/daily/*.md` from the first `## Summary` heading on (every summary and summary update is written by
 *   a dream) and the seeded scaffolding above it (title, ← → links, rule, warning);
 * - any note's YAML front matter or an HTML comment (DREAM_CUES, NEEDS_SUMMARY and other machine markers);
 * - hidden or temporary files, and paths that are absolute or climb out of the workspace.
 * Everything else under the search roots (skills/, other notes, text a person added to a daily note above its
 * summary) is interactive material and counts.
 */
export type Exclusion =
  'dream-artifact' | 'daily-summary' | 'daily-scaffold' | 'metadata' | 'hidden' | 'outside' | 'blank'

const DAILY_NOTE = /^notes\/daily\/\d{4}-\d{2}-\d{2}\.md$/
const SUMMARY_HEADING = /^## Summary(?: update \(\d{2}:\d{2}\))?\s*$/
const DAILY_LINKS = /^← \[\[/
const WARNING = /^> ⚠/
const LIST_ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s/
const HEADING = /^#{1,6}\s/
/** A block never spans more lines than this: MEMORY.md entries are one-line pointers, not copies. */
export const MAX_BLOCK_LINES = 6

/** Why hits in `relPath` can never count, or null when some of its lines may. */
export function excludedPath(relPath: string): Exclusion | null {
  if (relPath.startsWith('/') || /^[A-Za-z]:/.test(relPath) || relPath.includes('\0')) return 'outside'
  const segments = relPath.split('/')
  if (segments.some((segment) => segment === '..')) return 'outside'
  if (segments.some((segment) => segment.startsWith('.') || segment.endsWith('.tmp'))) return 'hidden'
  if (relPath.startsWith('notes/memory/')) return 'dream-artifact'
  return null
}

/** Per line (0-based): the reason it is excluded, or null when it is interactive text. */
export function classifyLines(relPath: string, lines: readonly string[]): (Exclusion | null)[] {
  const verdicts: (Exclusion | null)[] = lines.map(() => null)
  let i = 0
  if ((lines[0] ?? '').replace(/^\uFEFF/, '').trim() === '---') {
    const close = lines.findIndex((line, index) => index > 0 && line.trim() === '---')
    const end = close === -1 ? 0 : close
    for (; i <= end; i++) verdicts[i] = 'metadata'
  }
  for (let inComment = false; i < lines.length; i++) {
    const line = lines[i] as string
    if (inComment || line.includes('<!--')) {
      verdicts[i] = 'metadata'
      const opened = line.lastIndexOf('<!--')
      inComment = inComment ? !line.includes('-->') : line.indexOf('-->', opened) === -1
    }
  }
  if (DAILY_NOTE.test(relPath)) markDailyNote(lines, verdicts)
  return verdicts
}

function markDailyNote(lines: readonly string[], verdicts: (Exclusion | null)[]): void {
  const summaryAt = lines.findIndex((line) => SUMMARY_HEADING.test(line))
  if (summaryAt !== -1) for (let i = summaryAt; i < lines.length; i++) verdicts[i] = 'daily-summary'
  const end = summaryAt === -1 ? lines.length : summaryAt
  let hasTitle = false
  for (let i = 0; i < end; i++) {
    const line = lines[i] as string
    if (verdicts[i] !== null) continue
    const isTitle = !hasTitle && line.startsWith('# ')
    if (isTitle) hasTitle = true
    if (isTitle || DAILY_LINKS.test(line) || WARNING.test(line) || line.trim() === '---')
      verdicts[i] = 'daily-scaffold'
  }
}

/** The block of lines one hit stands for: 1-based inclusive range, its text and a 12-hex content hash. */
export interface RecallBlock {
  startLine: number
  endLine: number
  text: string
  hash: string
}

/**
 * The block around 1-based `line`: the list item it belongs to (with continuation lines), else its paragraph.
 * A heading hit counts for the first block of its section: search names a chunk's first match, often its
 * heading, and "Atlas deadline" should count for the same block as "deadline". At most MAX_BLOCK_LINES
 * lines, starting at the hit when the paragraph is longer. Excluded lines end a block, so a block never
 * mixes interactive and dream text.
 */
export function locateBlock(
  lines: readonly string[],
  verdicts: readonly (Exclusion | null)[],
  line: number,
): RecallBlock | Exclusion {
  const at = line - 1
  if (at < 0 || at >= lines.length) return 'blank'
  const verdict = verdicts[at]
  if (verdict) return verdict
  const isText = (index: number): boolean =>
    index >= 0 && index < lines.length && verdicts[index] === null && (lines[index] as string).trim() !== ''
  if (!isText(at)) return 'blank'
  const isHeading = (index: number): boolean => HEADING.test(lines[index] as string)
  const isItem = (index: number): boolean => LIST_ITEM.test(lines[index] as string)
  const fits = (start: number, end: number): boolean => end - start + 1 < MAX_BLOCK_LINES
  if (isHeading(at)) {
    let next = at + 1
    while (next < lines.length && (lines[next] as string).trim() === '' && next - at <= 2) next++
    // An empty section's heading is all there is; otherwise the hit counts for the section's first block.
    if (!isText(next) || isHeading(next)) return blockOf(lines, at, at)
    return locateBlock(lines, verdicts, next + 1)
  }
  // Up to the list item this line continues, or the paragraph's first line.
  let start = at
  while (!isItem(start) && isText(start - 1) && !isHeading(start - 1)) start--
  if (at - start >= MAX_BLOCK_LINES) start = at
  let end = start
  while (fits(start, end) && isText(end + 1) && !isHeading(end + 1) && !isItem(end + 1)) end++
  return blockOf(lines, start, end)
}

function blockOf(lines: readonly string[], start: number, end: number): RecallBlock {
  const text = lines
    .slice(start, end + 1)
    .map((line) => line.trimEnd())
    .join('\n')
  return { startLine: start + 1, endLine: end + 1, text, hash: hashText(text) }
}

/** First 12 hex of sha1: short enough for keys and markers, ample for one workspace's chunks. */
export function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 12)
}

/** `path:start-end:hash`, the identity of a recalled chunk. */
export function chunkKeyOf(
  relPath: string,
  block: Pick<RecallBlock, 'startLine' | 'endLine' | 'hash'>,
): string {
  return `${relPath}:${block.startLine}-${block.endLine}:${block.hash}`
}

/**
 * Finds `hash`'s block in the current text: at its recorded lines first, else wherever the same lines moved.
 * Null when the text is gone or now sits in excluded territory.
 */
export function findBlock(
  relPath: string,
  text: string,
  wanted: { startLine: number; endLine: number; hash: string },
): RecallBlock | null {
  const lines = splitLines(text)
  const verdicts = classifyLines(relPath, lines)
  const span = wanted.endLine - wanted.startLine
  for (let start = -1; start < lines.length; start++) {
    const from = start === -1 ? wanted.startLine - 1 : start
    if (from < 0 || from + span >= lines.length) continue
    if (verdicts.slice(from, from + span + 1).some((verdict) => verdict !== null)) continue
    const block = blockOf(lines, from, from + span)
    if (block.hash === wanted.hash) return block
  }
  return null
}

/** Lines without their `\r`, so CRLF files hash like LF ones. */
export function splitLines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
}
