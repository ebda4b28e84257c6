// The notes' byte budget of a dream: what its writes added, told back in every write result.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { WARNING_PREFIX } from '../notes/daily-note.js'
import { FACT_FILES, MEMORY_FILES } from '../notes/paths.js'
import type { WriteTarget } from './scope.js'

/**
 * What the runtime's key comment (`<!-- key: person.ana.city; value: Madrid; seen: … -->`) adds to each fact bullet
 * after the turn: about 80 bytes measured on LoCoMo dreams. The memory files' budget counts it, as the
 * memory-quality score does, so a model that writes thirty one-line facts sees what they really cost.
 */
export const KEY_COMMENT_BYTES = 80
const FACT_FILE_NAMES: ReadonlySet<string> = new Set(FACT_FILES)
const FACT_BULLET = /^[ \t]*[-*+] \*\*[^*\n]+\*\*/gm

/** What the memory files hold now, as their budget counts them (missing files count 0). */
export async function memoryHeldBytes(memoryDir: string): Promise<number> {
  let held = 0
  for (const name of MEMORY_FILES) {
    const text = await readFile(join(memoryDir, name), 'utf8').catch(() => null)
    if (text !== null) held += memoryBytesOf(`notes/memory/${name}`, text)
  }
  return held
}

/** A memory file's bytes as its budget counts them: its prose, and the key comment each fact bullet will get. */
function memoryBytesOf(rel: string, text: string): number {
  const name = rel.slice(rel.lastIndexOf('/') + 1)
  const prose = proseOnly(text)
  const bullets = FACT_FILE_NAMES.has(name) ? (prose.match(FACT_BULLET)?.length ?? 0) : 0
  return Buffer.byteLength(prose, 'utf8') + bullets * KEY_COMMENT_BYTES
}

/** Byte budgets of one dream, from its window's transcript bytes (see dream/turn-brief.ts). */
export interface NoteBudgetLimits {
  /** Bytes the window's messages hold (their content, UTF-8). */
  transcriptBytes: number
  /** Bytes daily notes and memory files together may add. */
  notesBytes: number
  /** Bytes the memory files (days/ pages included) may add. */
  memoryBytes: number
}

/** Share of the transcript's bytes the notes may take, and the memory files among them. */
export const NOTES_SHARE = 0.3
export const MEMORY_SHARE = 0.08
/**
 * The memory files may always add this much: a short window's 8% (84 bytes for a day of 1 KB) cannot hold one
 * changed fact and its struck-through old value, nor the rewritten recent-context and current-state. Long windows,
 * where the share is what matters, are far above it.
 */
export const MEMORY_FLOOR_BYTES = 2000

/**
 * `memoryHeldBytes`: what the memory files already hold (as memoryBytesOf counts them). Their share is of the
 * transcript in all, templates and earlier dreams' facts included, as the memory-quality score measures it; a
 * nightly dream over a short window still gets the floor.
 */
export function noteBudgetFor(transcriptBytes: number, memoryHeldBytes = 0): NoteBudgetLimits {
  const share = Math.round(transcriptBytes * MEMORY_SHARE)
  const memoryBytes = Math.max(MEMORY_FLOOR_BYTES, share - memoryHeldBytes)
  // The floor adds to the memory files' share only: the daily notes keep theirs.
  return {
    transcriptBytes,
    notesBytes: Math.round(transcriptBytes * NOTES_SHARE) + memoryBytes - share,
    memoryBytes,
  }
}

/**
 * Bytes of a note as a reader sees it: without front matter and HTML comments (the cues, key comments), as the
 * memory-quality score counts them.
 */
export function proseBytes(text: string): number {
  return Buffer.byteLength(proseOnly(text), 'utf8')
}

function proseOnly(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/^---\n[\s\S]*?\n(---|\.\.\.)\n/, '')
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
}

/**
 * What a note held before the dream wrote it. A daily note's incomplete-day warning is seeding's, gone once the
 * day is finished: counted, it would make a summary look smaller than it is.
 */
function baselineBytes(target: WriteTarget, before: string | null): number {
  if (before === null) return 0
  if (target.kind !== 'daily') return memoryBytesOf(target.rel, before)
  return proseBytes(
    before
      .split('\n')
      .filter((line) => !line.startsWith(WARNING_PREFIX))
      .join('\n'),
  )
}

const number = (n: number): string => n.toLocaleString('en-US')

/** Counts what each written note added since the dream first touched it. */
export class NoteBudget {
  readonly #limits: NoteBudgetLimits
  readonly #indexBudgetBytes: number
  /** Per written note: prose bytes before the dream's first write to it, and now. */
  readonly #notes = new Map<string, { kind: WriteTarget['kind']; before: number; now: number }>()

  constructor(limits: NoteBudgetLimits, indexBudgetBytes: number) {
    this.#limits = limits
    this.#indexBudgetBytes = indexBudgetBytes
  }

  /**
   * A day's part of the daily notes' budget: their bytes (the notes' less the memory files') in proportion to the
   * day's share of the window's message bytes.
   */
  dailyShareOf(dayBytes: number): number {
    const { transcriptBytes, notesBytes, memoryBytes } = this.#limits
    if (transcriptBytes <= 0) return 0
    return Math.round(((notesBytes - memoryBytes) * dayBytes) / transcriptBytes)
  }

  /** Records a write of `after` over `before` (null: a new file) and returns the line that reports the budget. */
  record(target: WriteTarget, before: string | null, after: string): string {
    const known = this.#notes.get(target.rel)
    const entry = known ?? { kind: target.kind, before: baselineBytes(target, before), now: 0 }
    entry.now = target.kind === 'daily' ? proseBytes(after) : memoryBytesOf(target.rel, after)
    this.#notes.set(target.rel, entry)
    return this.report(target.rel === 'notes/memory/MEMORY.md' ? Buffer.byteLength(after, 'utf8') : null)
  }

  /** Notes and memory files added so far against their budgets; MEMORY.md's size when it was just written. */
  report(indexBytes: number | null = null): string {
    let notes = 0
    let memory = 0
    for (const entry of this.#notes.values()) {
      const added = entry.now - entry.before
      notes += added
      if (entry.kind !== 'daily') memory += added
    }
    const { notesBytes, memoryBytes } = this.#limits
    const over =
      notes > notesBytes || memory > memoryBytes ? ' — over budget: condense before writing more' : ''
    const isIndexOver = indexBytes !== null && indexBytes > this.#indexBudgetBytes
    const index =
      indexBytes === null
        ? ''
        : `; MEMORY.md ${number(indexBytes)} of ${number(this.#indexBudgetBytes)} bytes${isIndexOver ? ' — over: shorten it' : ''}`
    return (
      `notes added this dream: ${number(notes)} of ${number(notesBytes)} bytes ` +
      `(memory files ${number(memory)} of ${number(memoryBytes)})${index}${over}`
    )
  }
}
