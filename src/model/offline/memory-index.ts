// Prune & Index, MEMORY.md: a compact index of one-line pointers (memory files, then days newest first)
// kept under a byte budget by trimming the least important, oldest day pointers first — never the newest.
// Daily notes get pointers for their latest days only, so the index of a year of nightly dreams is no bigger
// than that of one dream: it grows with the window, not with the history.
import { readBlock, writeBlock } from './block.js'

export const INDEX_BLOCK = 'index'

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

/**
 * Daily-note pointers the index holds: the latest days'. Every day's note is in daily/ under its date, so older
 * pointers would only repeat that folder's listing, one more line each night. Pointers to day pages
 * (memory/days/, a dream's distillation of a day) are not counted: they stay until the budget trims them.
 */
export const DAILY_NOTE_POINTERS = 3

export interface IndexInput {
  files: readonly FilePointer[]
  /** Pointers for this window's days; older ones already in the index are kept, daily notes' up to a count. */
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

// Pages distilled by a dream matter more than raw daily notes; among equals the older goes first.
const isDayPage = (pointer: DayPointer): boolean => pointer.target.startsWith('days/')
const importanceOf = (pointer: DayPointer): number => (isDayPage(pointer) ? 1 : 0)

/** The day pages' pointers and the latest DAILY_NOTE_POINTERS daily notes', newest first. */
function latestDays(pointers: readonly DayPointer[]): DayPointer[] {
  const newestFirst = [...pointers].sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0))
  const dailyNotes = new Set(
    newestFirst.filter((pointer) => !isDayPage(pointer)).slice(0, DAILY_NOTE_POINTERS),
  )
  return newestFirst.filter((pointer) => isDayPage(pointer) || dailyNotes.has(pointer))
}

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
  if (days.length === 0) lines.push('- none yet')
  return lines.join('\n')
}

/** MEMORY.md with its index block rebuilt and trimmed to `budgetBytes`; text outside the block is kept. */
export function renderMemoryIndex(existing: string, input: IndexInput): IndexResult {
  const fresh = new Set(input.days.map((pointer) => pointer.day))
  const kept = parseDayPointers(existing).filter((pointer) => !fresh.has(pointer.day))
  let days = latestDays([...input.days, ...kept])
  const newestDay = days[0]?.day
  const trimmed: string[] = []
  let isBare = false
  const render = (): string => writeBlock(existing, INDEX_BLOCK, renderBlock(input.files, days, isBare))
  let text = render()
  while (Buffer.byteLength(text) > input.budgetBytes) {
    const victim = days
      .filter((pointer) => pointer.day !== newestDay)
      .sort((a, b) => importanceOf(a) - importanceOf(b) || (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))[0]
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
