// What forgetting takes out of one note's text: whole keyed facts and pointers, Noted entries, cue lines,
// topics, summary sentences. Pure text in, text out, with a list of exactly what went.
import type { ForgetMatcher } from '../privacy/forget-match.js'
import { redactPieces, type PieceKind } from '../privacy/redact.js'
import { CUES_CLOSE, CUES_OPEN } from './daily-note.js'
import { NOTED_HEADING } from './noted.js'
import { FACT_FILES } from './paths.js'

/** What kind of thing a removal was, for the preview. */
export type RemovalKind = 'fact' | 'pointer' | 'noted' | 'cue' | 'topic' | 'sentence' | 'line'

export interface Removal {
  /** 1-based line in the note as it was. */
  line: number
  kind: RemovalKind
  /** What goes, as it stood (a removed line whole; a sentence or topic alone). */
  text: string
}

export interface ForgetEdit {
  text: string
  removals: Removal[]
}

/** How a note is read: by where it lives. */
type NoteShape = 'facts' | 'index' | 'topics' | 'daily' | 'prose'

const FACT_FILE_NAMES: ReadonlySet<string> = new Set(FACT_FILES)

export function shapeOf(rel: string): NoteShape {
  if (rel.startsWith('notes/daily/')) return 'daily'
  if (rel.startsWith('notes/memory/') && !rel.startsWith('notes/memory/days/')) {
    const name = rel.slice('notes/memory/'.length)
    if (name === 'MEMORY.md') return 'index'
    if (name === 'recent-context.md') return 'topics'
    if (FACT_FILE_NAMES.has(name)) return 'facts'
  }
  return 'prose'
}

const BULLET = /^(\s*)(?:[-*+]|\d+[.)])\s/

/**
 * `text` of note `rel` without what `matcher` matches. A list item is one unit with its indented continuation
 * lines: in memory files (a keyed fact, an index pointer) and under `## Noted` it goes whole; elsewhere only
 * its matching sentences (topics, in recent-context.md) go, and it goes whole once nothing else is left.
 * Front matter stays as it is; a heading that mentions it goes.
 */
export function forgetInText(rel: string, text: string, matcher: ForgetMatcher): ForgetEdit {
  if (!matcher.matches(text)) return { text, removals: [] }
  const shape = shapeOf(rel)
  const lines = text.split('\n')
  const out: string[] = []
  const removals: Removal[] = []
  let index = frontMatterEnd(lines, shape)
  out.push(...lines.slice(0, index))
  let heading = ''
  let inCues = false
  while (index < lines.length) {
    const line = lines[index] as string
    if (!inCues && line.startsWith(CUES_OPEN)) {
      inCues = !line.includes(CUES_CLOSE)
      out.push(line)
      index++
      continue
    }
    if (inCues) {
      // Cue lines are message snippets: one that mentions it goes whole; a list (cue_terms) loses the item.
      if (line.startsWith(CUES_CLOSE)) inCues = false
      if (inCues && matcher.matches(line)) {
        if (line.startsWith('- ')) removals.push({ line: index + 1, kind: 'cue', text: line })
        else keepRedacted(line, index, 'item', 'cue')
      } else out.push(line)
      index++
      continue
    }
    if (/^#{1,6}\s/.test(line)) {
      heading = line.trim()
      if (matcher.matches(line)) removals.push({ line: index + 1, kind: 'line', text: line })
      else out.push(line)
      index++
      continue
    }
    const end = BULLET.test(line) ? blockEnd(lines, index) : index + 1
    const block = lines.slice(index, end)
    const blockText = block.join('\n')
    if (!matcher.matches(blockText)) {
      out.push(...block)
    } else if (isWholeUnit(shape, heading, line)) {
      removals.push({ line: index + 1, kind: wholeKind(shape, heading), text: blockText })
    } else {
      for (let k = 0; k < block.length; k++)
        keepRedacted(block[k] as string, index + k, shape === 'topics' ? 'item' : 'sentence')
    }
    index = end
  }
  return { text: out.join('\n'), removals }

  function keepRedacted(line: string, at: number, kind: PieceKind, as?: RemovalKind): void {
    const redacted = redactPieces(line, matcher, kind)
    const label = as ?? (kind === 'item' ? 'topic' : 'sentence')
    if (redacted.removed.length === 0) return void out.push(line)
    if (redacted.text === null || isBareMarker(redacted.text)) {
      removals.push({ line: at + 1, kind: 'line', text: line })
      return
    }
    for (const piece of redacted.removed) removals.push({ line: at + 1, kind: label, text: piece })
    out.push(redacted.text)
  }
}

function isWholeUnit(shape: NoteShape, heading: string, line: string): boolean {
  if (!BULLET.test(line)) return false
  if (shape === 'facts' || shape === 'index') return true
  return shape === 'daily' && heading === NOTED_HEADING
}

function wholeKind(shape: NoteShape, heading: string): RemovalKind {
  if (shape === 'index') return 'pointer'
  if (shape === 'daily' && heading === NOTED_HEADING) return 'noted'
  return 'fact'
}

/** Past the YAML front matter of a daily note (never edited: it is counts and dates). */
function frontMatterEnd(lines: readonly string[], shape: NoteShape): number {
  if (lines[0] !== '---') return 0
  const close = lines.indexOf('---', 1)
  return shape === 'daily' || close > 0 ? close + 1 : 0
}

/** The first line after the list item starting at `start`: its continuation lines are indented deeper. */
function blockEnd(lines: readonly string[], start: number): number {
  const indent = (BULLET.exec(lines[start] as string)?.[1] ?? '').length
  let end = start + 1
  while (end < lines.length) {
    const next = lines[end] as string
    if (next.trim() === '') break
    const nextIndent = next.length - next.trimStart().length
    if (nextIndent <= indent) break
    end++
  }
  return end
}

/** What is left of a line once its words went: a bullet, a speaker's name, a day link alone. */
function isBareMarker(text: string): boolean {
  return /^\s*(?:[-*+]|\d+[.)])?\s*(?:\[\[[^\]]+\]\]\s*)?(?:[^\s:]{1,40}:)?\s*$/u.test(text)
}

/**
 * The names a removed fact held (`**Dentist: Dr Sousa**`, `<!-- key: …; value: Dr Sousa -->`), so forgetting
 * "my dentist" forgets the dentist's name wherever it is mentioned. Only name-like values (a capitalised word,
 * not a date or a number) count: "no meat" is no name to chase.
 */
export function valuesOfFact(text: string): string[] {
  const values = new Set<string>()
  for (const match of text.matchAll(/<!--\s*key:[^>]*?;\s*value:\s*([^;>]+?)\s*(?:;|-->)/g))
    values.add((match[1] as string).trim())
  const bold = /\*\*[^*:]+:\s*([^*]+?)\*\*/.exec(text)
  if (bold) values.add((bold[1] as string).trim())
  // "Dr Sousa" is also "Sousa": a title is how the name was said once, not part of every later mention.
  for (const value of [...values]) {
    const untitled = TITLE.exec(value)?.[1]
    if (untitled) values.add(untitled)
  }
  return [...values].filter(isNameLike)
}

const TITLE =
  /^(?:dr|dra|mr|mrs|ms|miss|prof|sr|sra|herr|frau|mme|mlle|m)\.?\s+(\p{Lu}[\p{L}'-]{3,}(?:\s+\p{Lu}[\p{L}'-]+)*)$/iu

function isNameLike(value: string): boolean {
  if (value.length < 3 || value.length > 60) return false
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return false
  return /(?:^|\s)\p{Lu}\p{Ll}/u.test(value)
}
