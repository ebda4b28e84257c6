// Orient: reads the seven memory files, the window's daily notes and the list of sparse day pages.
import { MEMORY_FILES, type MemoryFile } from '../../notes/paths.js'
import type { ReadOutcome, ToolClient } from './tool-client.js'

export const MEMORY_DIR = 'notes/memory'
export const DAILY_DIR = 'notes/daily'
export const DAYS_DIR = 'notes/memory/days'

export interface Orientation {
  memory: Map<MemoryFile, ReadOutcome>
  /** In-window daily notes that exist, by day. */
  dailyNotes: Map<string, string>
  /** Days that have a notes/memory/days/ page (any day, not just the window's). */
  dayPages: Set<string>
}

const DAY_FILE = /\/(\d{4}-\d{2}-\d{2})\.md$/

/** Days with a note in `folder`, or null when the listing was capped (then each day is read directly). */
async function listDays(client: ToolClient, folder: string): Promise<string[] | null> {
  const result = await client.call('list_files', { path: folder })
  // A folder that does not exist yet simply has no notes.
  if (!result.ok) return []
  if (/^\[capped:/m.test(result.content)) return null
  return result.content
    .split('\n')
    .filter((line) => line.startsWith(`${folder}/`) && !line.slice(folder.length + 1).includes('/'))
    .map((line) => DAY_FILE.exec(line)?.[1])
    .filter((day): day is string => day !== undefined)
}

export async function orient(client: ToolClient, days: readonly string[]): Promise<Orientation> {
  const memory = new Map<MemoryFile, ReadOutcome>()
  for (const name of MEMORY_FILES) memory.set(name, await client.read(`${MEMORY_DIR}/${name}`))
  const listed = await listDays(client, DAILY_DIR)
  const existing = listed === null ? days : days.filter((day) => listed.includes(day))
  const dailyNotes = new Map<string, string>()
  for (const day of existing) {
    const note = await client.read(`${DAILY_DIR}/${day}.md`)
    if (note.status === 'ok') dailyNotes.set(day, note.text)
  }
  const pages = await listDays(client, DAYS_DIR)
  return { memory, dailyNotes, dayPages: new Set(pages ?? []) }
}
