// The freshness pass after the model turn, whatever engine wrote: each fact file's keyed facts ordered by
// importance as of today, faded ones moved under `## Archive`, restated ones moved back (notes/fact-archive.ts).
// The offline engine does the same inside its turn, so after it this pass finds nothing left to change.
import { join } from 'node:path'
import { NoteNotUtf8Error, NoteReadOnlyError } from '../errors.js'
import { writeFileAtomic } from '../notes/atomic-write.js'
import { refreshFactFile } from '../notes/fact-archive.js'
import type { FreshnessParams } from '../notes/fact-freshness.js'
import { FRESHNESS_FILES } from '../notes/lasting-facts.js'
import { readNoteText } from '../notes/note-text.js'
import type { WorkspacePaths } from '../notes/paths.js'

export interface FreshnessPassResult {
  /** Absolute paths of the fact files it rewrote. */
  files: string[]
  /** Why a fact file had to be left alone (read-only, not UTF-8), one line each. */
  refused: string[]
}

/** Refreshes the fact files of `paths` as of the local day `today`; a missing file is skipped. */
export async function runFreshnessPass(
  paths: WorkspacePaths,
  today: string,
  params: FreshnessParams,
): Promise<FreshnessPassResult> {
  const result: FreshnessPassResult = { files: [], refused: [] }
  for (const name of FRESHNESS_FILES) {
    const file = join(paths.memory, name)
    try {
      const text = await readNoteText(file)
      if (text === null) continue
      const next = refreshFactFile(text, today, params, name)
      if (next === text) continue
      await writeFileAtomic(file, next)
      result.files.push(file)
    } catch (error) {
      if (!(error instanceof NoteReadOnlyError || error instanceof NoteNotUtf8Error)) throw error
      result.refused.push(error.message)
    }
  }
  return result
}
