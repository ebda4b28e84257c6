// One file's unified diff (via the `diff` package) and its line counts, bounded so a huge rewrite stays cheap.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff'

/** Either side bigger than this is not line-diffed; the change is then counted as whole-file. */
const MAX_DIFF_BYTES = 1024 * 1024
/** Myers' cost grows with the edit count: past this many edits the change counts as a rewrite. */
const MAX_EDIT_LENGTH = 20_000
const CONTEXT_LINES = 3

export interface TextDiff {
  /** Unified diff with `--- a/<path>` / `+++ b/<path>` headers ('' for identical or too-large texts). */
  diff: string
  linesAdded: number
  linesRemoved: number
  tooLarge: boolean
}

/** `before` → `after` as a unified diff; null stands for a file that does not exist on that side. */
export function diffTexts(path: string, before: string | null, after: string | null): TextDiff {
  const oldText = before ?? ''
  const newText = after ?? ''
  if (oldText === newText) return { diff: '', linesAdded: 0, linesRemoved: 0, tooLarge: false }
  const tooBig = Buffer.byteLength(oldText) > MAX_DIFF_BYTES || Buffer.byteLength(newText) > MAX_DIFF_BYTES
  const oldName = before === null ? '/dev/null' : `a/${path}`
  const newName = after === null ? '/dev/null' : `b/${path}`
  const options = { context: CONTEXT_LINES, maxEditLength: MAX_EDIT_LENGTH }
  const patch = tooBig
    ? undefined
    : structuredPatch(oldName, newName, oldText, newText, undefined, undefined, options)
  if (!patch)
    return { diff: '', linesAdded: countLines(newText), linesRemoved: countLines(oldText), tooLarge: true }
  let linesAdded = 0
  let linesRemoved = 0
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) linesAdded += 1
      else if (line.startsWith('-')) linesRemoved += 1
    }
  }
  return { diff: formatPatch(patch, FILE_HEADERS_ONLY), linesAdded, linesRemoved, tooLarge: false }
}

function countLines(text: string): number {
  if (text === '') return 0
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}
