// The memory files as the Memory view and /api/status see them: contents, sizes and counts.
import type { SecretKind } from '../secrets/types.js'
import { withholdSecrets } from '../secrets/withhold.js'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { MEMORY_FILES, type WorkspacePaths } from '../notes/paths.js'

export interface MemoryCounts {
  /** Memory files present, of the seven. */
  memoryFiles: number
  missing: string[]
  memoryBytes: number
  /** notes/memory/days/*.md */
  dayPages: number
  /** notes/daily/*.md */
  dailyNotes: number
}

export interface MemoryFileView {
  /** Workspace-relative, '/' separated. */
  path: string
  bytes: number
  text: string
}

/** Day pages shown on the Memory view, newest first; older ones stay in the notes. */
const MAX_DAY_PAGES = 60
const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.md$/

export async function countMemory(paths: WorkspacePaths): Promise<MemoryCounts> {
  // Together, not one after another: /api/status must answer while a dream keeps the loop busy.
  const [sizes, dayPages, dailyNotes] = await Promise.all([
    Promise.all(MEMORY_FILES.map((name) => sizeOf(join(paths.memory, name)))),
    listDays(paths.days),
    listDays(paths.daily),
  ])
  const missing = MEMORY_FILES.filter((_, index) => sizes[index] === null)
  return {
    memoryFiles: MEMORY_FILES.length - missing.length,
    missing,
    memoryBytes: sizes.reduce<number>((total, size) => total + (size ?? 0), 0),
    dayPages: dayPages.length,
    dailyNotes: dailyNotes.length,
  }
}

/** The seven memory files that exist (in their canonical order), then the newest day pages. */
export async function readMemoryFiles(
  paths: WorkspacePaths,
  keepKinds: readonly SecretKind[] = [],
): Promise<MemoryFileView[]> {
  const views: MemoryFileView[] = []
  for (const name of MEMORY_FILES) {
    const view = await readView(join(paths.memory, name), `notes/memory/${name}`, keepKinds)
    if (view) views.push(view)
  }
  const days = (await listDays(paths.days)).sort().reverse().slice(0, MAX_DAY_PAGES)
  for (const name of days) {
    const view = await readView(join(paths.days, name), `notes/memory/days/${name}`, keepKinds)
    if (view) views.push(view)
  }
  return views
}

async function readView(
  file: string,
  path: string,
  keepKinds: readonly SecretKind[],
): Promise<MemoryFileView | null> {
  try {
    // A note not yet cleaned by a dream (written by hand) still never shows a secret on the page.
    const text = withholdSecrets(await readFile(file, 'utf8'), { keepKinds }).text
    return { path, bytes: Buffer.byteLength(text), text }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

async function listDays(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => DAY_FILE.test(name))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    const info = await stat(file)
    return info.isFile() ? info.size : null
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
