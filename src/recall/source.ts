// Which lines of which notes may become recall evidence, and the small block of text a hit stands for.
import { createHash } from 'node:crypto'

/**
 * Recall covers everything an assistant reads: notes people wrote, skills, the memory files and day pages, and
 * the summaries dreams write into daily notes. What is kept out keeps dreams from feeding themselves:
 * - a dream's own searches never record (see events.ts: `dream:` channels);
 * - `notes/memory/MEMORY.md` is the promotion target, so nothing in it is ever a candidate (`promotion-target`);
 * - a line carrying a promotion marker (`<!-- recall:… -->`), wherever it was copied to, is never promoted
 *   again (`promoted`);
 * - `notes/DREAMS.md` is the dreams' own diary of what they did, not knowledge (`dream-diary`);
 * - a daily note's seeded scaffolding (title, ← → links, rule, warning), any YAML front matter and comments
 *   (DREAM_CUES, NEEDS_SUMMARY and other machine markers; a line's inline comment hides only itself);
 * - hidden or temporary files, and paths that are absolute or climb out of the workspace.
 */
export type Exclusion =
  | 'promotion-target'
  | 'promoted'
  | 'dream-diary'
  | 'daily-scaffold'
  | 'metadata'
  | 'hidden'
  | 'outside'
  | 'blank'

/** The promotion target and the dream diary: never recall candidates. */
export const MEMORY_INDEX_PATH = 'notes/memory/MEMORY.md'
export const DREAM_DIARY_PATH = 'notes/DREAMS.md'
const PROMOTION_MARKER = /<!-- recall:[0-9a-f]{12} -->/
const INLINE_COMMENT = /<!--[\s\S]*?-->/g

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
  if (relPath === MEMORY_INDEX_PATH) return 'promotion-target'
  if (relPath === DREAM_DIARY_PATH) return 'dream-diary'
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
    if (inComment) {
      verdicts[i] = 'metadata'
      inComment = !line.includes('-->')
      continue
    }
    if (!line.includes('<!--')) continue
    const opened = line.lastIndexOf('<!--')
    if (line.indexOf('-->', opened) === -1) {
      verdicts[i] = 'metadata'
      inComment = true
    } else if (PROMOTION_MARKER.test(line)) {
      verdicts[i] = 'promoted'
    } else if (line.replace(INLINE_COMMENT, '').trim() === '') {
      // A marker on a line of its own (NEEDS_SUMMARY); a fact bullet's inline `<!-- key: … -->` hides nothing.
      verdicts[i] = 'metadata'
    }
  }
  if (DAILY_NOTE.test(relPath)) markDailyNote(lines, verdicts)
  return verdicts
}

/** The seeded scaffolding above a daily note's first summary heading; the summaries themselves are recall. */
function markDailyNote(lines: readonly string[], verdicts: (Exclusion | null)[]): void {
  const summaryAt = lines.findIndex((line) => SUMMARY_HEADING.test(line))
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
