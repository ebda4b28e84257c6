// Finds the line of a chunk's first match and cuts that line into a short snippet with the matches marked.

/** Markers FTS5 highlight() puts around matches; control characters, so note text never contains them. */
export const MATCH_START = '\u0001'
export const MATCH_END = '\u0002'
export const SNIPPET_OPEN = '«'
export const SNIPPET_CLOSE = '»'

const SNIPPET_MAX_CHARS = 200

/**
 * Where a chunk's matches sit: the first match outside ~~struck-through~~ text (a superseded value) when
 * there is one, else the first match. `isStruckOnly` when every match is struck through.
 */
export function matchFocus(marked: string): { focus: number; isStruckOnly: boolean } {
  const matches: number[] = []
  for (let at = marked.indexOf(MATCH_START); at >= 0; at = marked.indexOf(MATCH_START, at + 1)) {
    matches.push(at)
  }
  if (matches.length === 0) return { focus: firstTextIndex(marked), isStruckOnly: false }
  const struck = struckSpans(marked)
  const live = matches.find((at) => !struck.some(([from, to]) => at > from && at < to))
  return { focus: live ?? matches[0]!, isStruckOnly: live === undefined }
}

/** [start, end) of every ~~…~~ span, each within one line. */
function struckSpans(text: string): [number, number][] {
  return [...text.matchAll(/~~[^\n]*?~~/g)].map((match) => [match.index, match.index + match[0].length])
}

/** `marked` is a chunk with matches wrapped in MATCH_START/MATCH_END; `startLine` is its first line. */
export function locateMatch(marked: string, startLine: number): { line: number; snippet: string } {
  const { focus } = matchFocus(marked)
  const lineStart = marked.lastIndexOf('\n', focus - 1) + 1
  const newline = marked.indexOf('\n', focus)
  const lineEnd = newline < 0 ? marked.length : newline
  const line = startLine + marked.slice(0, lineStart).split('\n').length - 1
  return { line, snippet: cutSnippet(marked.slice(lineStart, lineEnd), focus - lineStart) }
}

/** Wraps each case-insensitive occurrence of any needle in MATCH_START/MATCH_END (substring hits). */
export function markOccurrences(text: string, needles: readonly string[]): { marked: string; count: number } {
  const lower = text.toLowerCase()
  const spans: [number, number][] = []
  for (const needle of needles.map((item) => item.toLowerCase()).filter(Boolean)) {
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      spans.push([at, at + needle.length])
    }
  }
  spans.sort((a, b) => a[0] - b[0])
  let marked = ''
  let cursor = 0
  for (const [from, to] of spans) {
    if (from < cursor) continue // overlapping needles: keep the first
    marked += `${text.slice(cursor, from)}${MATCH_START}${text.slice(from, to)}${MATCH_END}`
    cursor = to
  }
  // toLowerCase can change lengths for a few scripts; marks then fall back to none rather than misplace.
  if (lower.length !== text.length) return { marked: text, count: spans.length }
  return { marked: marked + text.slice(cursor), count: spans.length }
}

function firstTextIndex(text: string): number {
  const index = text.search(/\S/)
  return index < 0 ? 0 : index
}

/** The line around `focus`, at most ~200 visible chars, markers turned into « » and kept balanced. */
function cutSnippet(line: string, focus: number): string {
  let from = 0
  let to = line.length
  if (line.length > SNIPPET_MAX_CHARS) {
    from = Math.max(0, focus - Math.floor(SNIPPET_MAX_CHARS / 3))
    to = Math.min(line.length, from + SNIPPET_MAX_CHARS)
  }
  let snippet = ''
  let isOpen = false
  for (const char of line.slice(from, to)) {
    if (char === MATCH_START) {
      isOpen = true
      snippet += SNIPPET_OPEN
    } else if (char === MATCH_END) {
      if (isOpen) snippet += SNIPPET_CLOSE
      isOpen = false
    } else {
      snippet += char
    }
  }
  if (isOpen) snippet += SNIPPET_CLOSE
  return `${from > 0 ? '…' : ''}${snippet.trim()}${to < line.length ? '…' : ''}`
}
