// What a dream had to leave alone: notes refused by the user's permissions, their encoding or the disk; and the
// post-turn passes (freshness, index) that report such a refusal instead of failing the run.
import { NoteNotUtf8Error, NoteReadOnlyError } from '../errors.js'
import type { ToolCallRecord } from '../tools/types.js'
import type { DreamDeps } from './deps.js'
import { localDayOf } from '../time/local-day.js'
import { runFactKeysPass, type FactKeysPassResult } from './fact-keys-pass.js'
import { runFreshnessPass } from './freshness-pass.js'
import { runIndexPass } from './index-pass.js'

/**
 * The fact-keys pass, the freshness pass, then the index pass, where a read-only or non-UTF-8 memory file is a
 * problem to report, not a reason to drop the run's work. Keys and freshness go by the clock's local day.
 */
export async function indexOrRefuse(
  deps: DreamDeps,
  changed: string[],
): Promise<{
  files: string[]
  refreshed: number
  pointers: number
  facts: FactKeysPassResult
  refused: string | null
}> {
  const today = localDayOf(deps.clock.now(), deps.config.timezone)
  // Keys first: freshness orders and archives keyed facts only, so a model's facts must be keyed before it runs.
  const facts = await runFactKeysPass(deps.paths, today)
  const fresh = await runFreshnessPass(deps.paths, today, deps.config.memory.freshness)
  const refusals = [...facts.refused, ...fresh.refused]
  let pointers: string[] = []
  try {
    pointers = await runIndexPass(deps.paths, changed)
  } catch (error) {
    if (!(error instanceof NoteReadOnlyError || error instanceof NoteNotUtf8Error)) throw error
    refusals.push(error.message)
  }
  return {
    files: [...new Set([...facts.files, ...fresh.files, ...pointers])],
    refreshed: fresh.files.length,
    pointers: pointers.length,
    facts,
    refused: refusals.length > 0 ? refusals.join('; ') : null,
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
