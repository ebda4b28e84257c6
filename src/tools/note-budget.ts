// The notes' byte budget of a dream: what its writes added, told back in every write result.
import { WARNING_PREFIX } from '../notes/daily-note.js'
import type { WriteTarget } from './scope.js'

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

export function noteBudgetFor(transcriptBytes: number): NoteBudgetLimits {
  const share = Math.round(transcriptBytes * MEMORY_SHARE)
  const memoryBytes = Math.max(MEMORY_FLOOR_BYTES, share)
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
  const body = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/^---\n[\s\S]*?\n(---|\.\.\.)\n/, '')
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
  return Buffer.byteLength(body, 'utf8')
}

/**
 * What a note held before the dream wrote it. A daily note's incomplete-day warning is seeding's, gone once the
 * day is finished: counted, it would make a summary look smaller than it is.
 */
function baselineBytes(kind: WriteTarget['kind'], before: string | null): number {
  if (before === null) return 0
  if (kind !== 'daily') return proseBytes(before)
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

  /** Records a write of `after` over `before` (null: a new file) and returns the line that reports the budget. */
  record(target: WriteTarget, before: string | null, after: string): string {
    const known = this.#notes.get(target.rel)
    const entry = known ?? { kind: target.kind, before: baselineBytes(target.kind, before), now: 0 }
    entry.now = proseBytes(after)
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
