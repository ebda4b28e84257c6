// The fact-keys pass after the model turn, before freshness: every fact bullet the turn left in the memory files is
// keyed, restatements counted and changed values superseded (notes/fact-keys.ts), whatever engine wrote them. The
// offline engine keys its own lines, so after it this pass finds nothing to do.
import { join } from 'node:path'
import { NoteNotUtf8Error, NoteReadOnlyError } from '../errors.js'
import { writeFileAtomic } from '../notes/atomic-write.js'
import { keyFactFile } from '../notes/fact-keys.js'
import { readNoteText } from '../notes/note-text.js'
import { FACT_FILES, type WorkspacePaths } from '../notes/paths.js'

export interface FactKeysPassResult {
  /** Absolute paths of the fact files it rewrote. */
  files: string[]
  /** Keys given to bullets that had none. */
  keyed: string[]
  /** Keys whose `seen:` grew. */
  reinforced: string[]
  /** `key: old → new`, one per value struck through. */
  superseded: string[]
  /** Restating bullets folded into the fact they restate. */
  merged: number
  /** Why a fact file had to be left alone (read-only, not UTF-8), one line each. */
  refused: string[]
}

/** Keys the fact files of `paths`; `today` (a local day) dates a change whose bullet names no day. */
export async function runFactKeysPass(paths: WorkspacePaths, today: string): Promise<FactKeysPassResult> {
  const result: FactKeysPassResult = {
    files: [],
    keyed: [],
    reinforced: [],
    superseded: [],
    merged: 0,
    refused: [],
  }
  for (const name of FACT_FILES) {
    const file = join(paths.memory, name)
    try {
      const text = await readNoteText(file)
      if (text === null) continue
      const keys = keyFactFile(text, name, today)
      if (keys.text === text) continue
      await writeFileAtomic(file, keys.text)
      result.files.push(file)
      result.keyed.push(...keys.keyed)
      result.reinforced.push(...keys.reinforced)
      result.superseded.push(...keys.superseded)
      result.merged += keys.merged
    } catch (error) {
      if (!(error instanceof NoteReadOnlyError || error instanceof NoteNotUtf8Error)) throw error
      result.refused.push(error.message)
    }
  }
  return result
}

const NAMED = 4

function named(items: readonly string[]): string {
  if (items.length === 0) return ''
  const more = items.length > NAMED ? `, +${items.length - NAMED} more` : ''
  return ` (${items.slice(0, NAMED).join(', ')}${more})`
}

/** "3 fact(s) keyed (user.city, …), 1 reinforced (user.job), 1 superseded (user.city: Porto → Lisbon)". */
export function describeFactKeys(result: Omit<FactKeysPassResult, 'files' | 'refused'>): string {
  const merged = result.merged > 0 ? `, ${result.merged} restatement(s) merged` : ''
  return (
    `${result.keyed.length} fact(s) keyed${named(result.keyed)}, ` +
    `${result.reinforced.length} reinforced${named(result.reinforced)}, ` +
    `${result.superseded.length} superseded${named(result.superseded)}${merged}`
  )
}

/** The engine's closing text with a "Facts: …" line for the summary, when the pass changed any fact. */
export function withFactsLine(engineText: string, result: Omit<FactKeysPassResult, 'files' | 'refused'>) {
  const changes = result.keyed.length + result.reinforced.length + result.superseded.length + result.merged
  if (changes === 0) return engineText
  return [engineText.trim(), `Facts: ${describeFactKeys(result)}.`].filter(Boolean).join('\n')
}
