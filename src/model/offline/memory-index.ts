// Prune & Index, MEMORY.md: a compact index of one-line pointers (memory files, then day pages newest first)
// kept under a byte budget by trimming the oldest day pointers first — never the newest.
// Day pages (memory/days/, a dream's distillation of a day that mattered) get pointers; daily notes do not: every
// day's note is in daily/ under its date and recent-context.md lists the latest days, so a pointer per day would
// repeat both (as a search hit, a decoy) and grow the index with the history rather than with what matters.
import { INDEX_BLOCK, readBlock, writeBlock } from '../../notes/owned-block.js'

export interface FilePointer {
  /** File name relative to notes/memory, e.g. `user.md`. */
  name: string
  description: string
}

export interface DayPointer {
  day: string
  /** Link target relative to notes/memory: `days/D.md` when a page exists, else `../daily/D.md`. */
  target: string
  hook: string
}

export interface IndexInput {
  files: readonly FilePointer[]
  /** Pointers for this window's day pages; older ones already in the index are kept, daily notes' dropped. */
  days: readonly DayPointer[]
  budgetBytes: number
}

export interface IndexResult {
  text: string
  /** Days whose pointers were trimmed to fit the budget, oldest first. */
  trimmed: string[]
  /** True when even the smallest index does not fit (text outside the block is never cut). */
  isOverBudget: boolean
}

const POINTER = /^- \[(\d{4}-\d{2}-\d{2})\]\(([^)\s]+)\)(?: — (.*))?$/

/** Day pointers already in the index block. */
export function parseDayPointers(text: string): DayPointer[] {
  const block = readBlock(text, INDEX_BLOCK) ?? ''
  const pointers: DayPointer[] = []
  for (const line of block.split('\n')) {
    const match = POINTER.exec(line)
    if (match) pointers.push({ day: match[1] as string, target: match[2] as string, hook: match[3] ?? '' })
  }
  return pointers
}

const isDayPage = (pointer: DayPointer): boolean => pointer.target.startsWith('days/')

/** The day pages' pointers, newest first; a daily note's (an older index's) is dropped. */
function dayPagesNewestFirst(pointers: readonly DayPointer[]): DayPointer[] {
  return pointers.filter(isDayPage).sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0))
}

// Where the days are when none has a page of its own.
const NO_DAY_PAGES =
  '- no day pages yet; the latest days: [recent-context.md](recent-context.md), every day: ../daily/'

function renderBlock(files: readonly FilePointer[], days: readonly DayPointer[], isBare: boolean): string {
  const lines = ['## Memory files', '']
  for (const file of files) {
    lines.push(
      isBare ? `- [${file.name}](${file.name})` : `- [${file.name}](${file.name}) — ${file.description}`,
    )
  }
  lines.push('', '## Days', '')
  for (const day of days) {
    lines.push(
      day.hook === '' ? `- [${day.day}](${day.target})` : `- [${day.day}](${day.target}) — ${day.hook}`,
    )
  }
  if (days.length === 0) lines.push(NO_DAY_PAGES)
  return lines.join('\n')
}

/** MEMORY.md with its index block rebuilt and trimmed to `budgetBytes`; text outside the block is kept. */
export function renderMemoryIndex(existing: string, input: IndexInput): IndexResult {
  const fresh = new Set(input.days.map((pointer) => pointer.day))
  const kept = parseDayPointers(existing).filter((pointer) => !fresh.has(pointer.day))
  let days = dayPagesNewestFirst([...input.days, ...kept])
  const newestDay = days[0]?.day
  const trimmed: string[] = []
  let isBare = false
  const render = (): string => writeBlock(existing, INDEX_BLOCK, renderBlock(input.files, days, isBare))
  let text = render()
  while (Buffer.byteLength(text) > input.budgetBytes) {
    const victim = days.filter((pointer) => pointer.day !== newestDay).at(-1)
    const newest = days.find((pointer) => pointer.day === newestDay)
    if (victim) {
      days = days.filter((pointer) => pointer !== victim)
      trimmed.push(victim.day)
    } else if (!isBare) {
      isBare = true
    } else if (newest && newest.hook !== '') {
      // The newest pointer itself is never dropped; at most it loses its description.
      days = days.map((pointer) => (pointer === newest ? { ...pointer, hook: '' } : pointer))
    } else {
      break
    }
    text = render()
  }
  const isOverBudget = Buffer.byteLength(text) > input.budgetBytes
  return { text, trimmed: trimmed.sort(), isOverBudget }
}
