// The deterministic index pass after the model: only adds missing MEMORY.md pointers, never rewrites what exists.
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../notes/atomic-write.js'
import { readNoteText } from '../notes/note-text.js'
import { insertUnderHeading } from '../notes/markdown.js'
import type { WorkspacePaths } from '../notes/paths.js'

const DAYS_HEADING = '## Days'
const DAY_PAGE = /^\d{4}-\d{2}-\d{2}\.md$/

/**
 * Appends a pointer in MEMORY.md for every notes/memory/days/ page written in this run (`changedFiles`) that
 * MEMORY.md does not mention. Only this run's pages: a pointer the model trimmed for budget stays trimmed.
 * Existing bytes are kept exactly: new lines go at the end of the Days section (or a new one at the end).
 * Returns the files it changed.
 */
export async function runIndexPass(
  paths: WorkspacePaths,
  changedFiles: readonly string[],
): Promise<string[]> {
  const indexFile = join(paths.memory, 'MEMORY.md')
  const current = await readNoteText(indexFile)
  if (current === null) return []
  const written = new Set(changedFiles)
  let pages: string[]
  try {
    pages = (await readdir(paths.days))
      .filter((name) => DAY_PAGE.test(name) && written.has(join(paths.days, name)))
      .sort()
  } catch {
    return []
  }
  const missing = pages.filter(
    (page) => !current.includes(`days/${page}`) && !current.includes(`days/${page.slice(0, -3)}`),
  )
  if (missing.length === 0) return []
  const lines = missing.map((page) => `- ${page.slice(0, -3)}: see [days/${page}](days/${page})`)
  await writeFileAtomic(indexFile, insertUnderHeading(current, DAYS_HEADING, lines))
  return [indexFile]
}
