// notes/DREAMS.md: one short line per dream and promotion sweep, grouped by month, older months rolled up.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from './atomic-write.js'
import type { WorkspacePaths } from './paths.js'

export const DIARY_HEADER =
  '# Dream diary\n\n> What each dream and promotion sweep read, changed and left unresolved, newest month last.\n' +
  '> Written by dreamlane; older months are rolled up into one line each to keep this file small.\n'
const MONTH_HEADING = /^## (\d{4}-\d{2})( \(rolled up\))?\s*$/

/** One diary line's parts; `changedFiles` and `promoted` feed a month's roll-up. */
export interface DiaryEntry {
  /** Local date and time, `2026-11-25 01:00`. */
  at: string
  /** `dream`, `sweep` or `undo`. */
  kind: 'dream' | 'sweep' | 'undo'
  /** The run's mode (auto, manual, bootstrap, light, deep, rem). */
  mode: string
  runId: string
  status: string
  read: string
  changed: string
  unresolved: string
  changedFiles: number
  promoted: number
}

export function diaryPath(paths: Pick<WorkspacePaths, 'notes'>): string {
  return join(paths.notes, 'DREAMS.md')
}

/** `- 2026-11-25 01:00 · dream auto · succeeded · run-… — read …; changed …; unresolved … <!-- files: 3; promoted: 0 -->` */
export function renderDiaryEntry(entry: DiaryEntry): string {
  const head = `${entry.at} · ${entry.kind} ${entry.mode} · ${entry.status} · ${entry.runId}`
  const body = `read ${entry.read}; changed ${entry.changed}; unresolved: ${entry.unresolved}`
  return `- ${oneLine(head)} — ${oneLine(body)} <!-- files: ${entry.changedFiles}; promoted: ${entry.promoted} -->`
}

function oneLine(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/<!--|-->/g, '')
    .trim()
}

interface Month {
  month: string
  rolledUp: boolean
  lines: string[]
}

function parseMonths(text: string): Month[] {
  const months: Month[] = []
  for (const line of text.split('\n')) {
    const heading = MONTH_HEADING.exec(line)
    if (heading) months.push({ month: heading[1] as string, rolledUp: Boolean(heading[2]), lines: [] })
    else if (months.length > 0 && line.trim() !== '') months.at(-1)?.lines.push(line)
  }
  return months
}

function renderMonths(months: readonly Month[]): string {
  const sections = months.map(
    (m) => `## ${m.month}${m.rolledUp ? ' (rolled up)' : ''}\n\n${m.lines.join('\n')}\n`,
  )
  return [DIARY_HEADER, ...sections].join('\n')
}

/** A month's entries as one line: how many dreams, sweeps and undos, and what they changed and promoted. */
export function rollUpMonth(month: Month): Month {
  if (month.rolledUp) return month
  const count = (kind: string) => month.lines.filter((line) => line.includes(` · ${kind} `)).length
  const sum = (field: string) =>
    month.lines.reduce(
      (total, line) => total + Number(new RegExp(`${field}: (\\d+)`).exec(line)?.[1] ?? 0),
      0,
    )
  const line =
    `- ${count('dream')} dream(s), ${count('sweep')} sweep(s), ${count('undo')} undo(s); ` +
    `${sum('files')} file change(s), ${sum('promoted')} promotion(s) <!-- files: ${sum('files')}; promoted: ${sum('promoted')} -->`
  return { month: month.month, rolledUp: true, lines: [line] }
}

/**
 * `text` with `entry` appended under its month, then older months rolled up, oldest first, while the file is
 * over `budgetBytes`. The current month is never rolled up, so the newest entries always stay readable.
 */
export function appendDiaryEntry(text: string, entry: DiaryEntry, budgetBytes: number): string {
  const months = parseMonths(text)
  const month = entry.at.slice(0, 7)
  let current = months.find((m) => m.month === month && !m.rolledUp)
  if (!current) {
    current = { month, rolledUp: false, lines: [] }
    months.push(current)
    months.sort((a, b) => a.month.localeCompare(b.month))
  }
  current.lines.push(renderDiaryEntry(entry))
  for (let i = 0; i < months.length; i++) {
    if (Buffer.byteLength(renderMonths(months), 'utf8') <= budgetBytes) break
    const older = months[i] as Month
    if (older.month !== month) months[i] = rollUpMonth(older)
  }
  return renderMonths(months)
}

/** Appends one entry to notes/DREAMS.md (atomically; the caller holds the workspace lock). Returns the file. */
export async function writeDiaryEntry(
  paths: Pick<WorkspacePaths, 'notes'>,
  entry: DiaryEntry,
  budgetBytes: number,
): Promise<string> {
  const file = diaryPath(paths)
  let text = ''
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await writeFileAtomic(file, appendDiaryEntry(text, entry, budgetBytes))
  return file
}
