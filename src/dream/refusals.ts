// What a dream had to leave alone: notes refused by the user's permissions, their encoding or the disk.
import { NoteNotUtf8Error, NoteReadOnlyError } from '../errors.js'
import type { ToolCallRecord } from '../tools/types.js'
import type { DreamDeps } from './deps.js'
import { runIndexPass } from './index-pass.js'

/** The index pass, where a read-only MEMORY.md is a problem to report, not a reason to drop the run's work. */
export async function indexOrRefuse(
  deps: DreamDeps,
  changed: string[],
): Promise<{ files: string[]; refused: string | null }> {
  try {
    return { files: await runIndexPass(deps.paths, changed), refused: null }
  } catch (error) {
    if (!(error instanceof NoteReadOnlyError || error instanceof NoteNotUtf8Error)) throw error
    return { files: [], refused: error.message }
  }
}

/** Codes of notes the dream had to leave alone (permissions, encoding, disk): it did not do all its work. */
const REFUSED_WRITE_CODES = new Set(['NOTE_READ_ONLY', 'NOTE_NOT_UTF8', 'WRITE_FAILED'])

/** "2 note write(s) refused (retryable once fixed): …", or null when every write went through. */
export function describeRefusedWrites(calls: readonly ToolCallRecord[]): string | null {
  const refused = calls.filter((call) => call.code !== undefined && REFUSED_WRITE_CODES.has(call.code))
  if (refused.length === 0) return null
  const first = refused[0]?.preview ?? ''
  return `${refused.length} note read(s)/write(s) refused (retryable once fixed): ${first}`
}
