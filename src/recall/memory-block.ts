// Promoted entries in MEMORY.md: one line each, a stable marker per chunk key, added only within the budget.
import { relative } from 'node:path'
import { insertUnderHeading } from '../notes/markdown.js'
import { clipText, escapeForComment } from '../notes/cues.js'
import { hashText } from './source.js'

export const PROMOTED_HEADING = '## Promoted from recall'
const MARKER = /<!-- recall:([0-9a-f]{12}) -->/g
const EXCERPT_MAX_CHARS = 160

/** The id in a chunk's marker: 12 hex of sha1(chunk key). Same key, same marker, however often it is run. */
export function markerIdOf(chunkKey: string): string {
  return hashText(chunkKey)
}

/** Marker ids already in `text`. */
export function markersIn(text: string): Set<string> {
  return new Set([...text.matchAll(MARKER)].map((match) => match[1] as string))
}

export interface EntrySource {
  path: string
  startLine: number
  endLine: number
  text: string
}

/** When a chunk was promoted (local day) and with what score: shown on its entry, so age and weight are visible. */
export interface EntryStamp {
  day: string
  score: number
}

/**
 * `- <excerpt> — [path:12-14](../path) (2026-11-25, score 0.82) <!-- recall:<id> -->`: a one-line pointer,
 * list markers, heading hashes and comments dropped, at most 160 chars, and no `--` so note text can never
 * open or close a comment.
 */
export function renderEntry(
  source: EntrySource,
  markerId: string,
  memoryDir: string,
  workspace: string,
  stamp: EntryStamp,
): string {
  const flat = source.text
    .split('\n')
    .map((line) =>
      line
        .replace(/<!--[\s\S]*?-->/g, '')
        .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
        .replace(/^#{1,6}\s+/, '')
        .trim(),
    )
    .filter(Boolean)
    .join(' ')
  const excerpt = escapeForComment(clipText(flat, EXCERPT_MAX_CHARS)).replace(/[<>]/g, (c) =>
    c === '<' ? '‹' : '›',
  )
  const link = relative(memoryDir, `${workspace}/${source.path}`).replaceAll('\\', '/')
  const lines =
    source.startLine === source.endLine ? `${source.startLine}` : `${source.startLine}-${source.endLine}`
  const dated = `(${stamp.day}, score ${stamp.score.toFixed(2)})`
  return `- ${excerpt} — [${source.path}:${lines}](${link}) ${dated} <!-- recall:${markerId} -->`
}

export interface InsertResult {
  text: string
  /** Entries added, in the order given. */
  added: string[]
  /** Entries left out because the file would pass `budgetBytes`. */
  overBudget: string[]
}

/**
 * Adds each entry at the end of the promoted section (creating it at the end of the file), keeping every
 * existing byte. An entry that would take the file past `budgetBytes` is left out and later, smaller ones are
 * still tried, so the file never grows past the budget and nothing already there is trimmed.
 */
export function insertEntries(
  current: string,
  entries: readonly string[],
  budgetBytes: number,
): InsertResult {
  let text = current
  const added: string[] = []
  const overBudget: string[] = []
  for (const entry of entries) {
    const next = insertUnderHeading(text, PROMOTED_HEADING, [entry])
    if (Buffer.byteLength(next, 'utf8') > budgetBytes) {
      overBudget.push(entry)
      continue
    }
    text = next
    added.push(entry)
  }
  return { text, added, overBudget }
}
