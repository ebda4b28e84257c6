// The startup contract: what an assistant reads at the start of a session, and how it uses its memory tools.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CORE_MEMORY_FILES, type WorkspacePaths } from '../notes/paths.js'
import type { SecretKind } from '../secrets/types.js'
import { withholdSecrets } from '../secrets/withhold.js'

export const STARTUP_CONTRACT = [
  'You have a long-term memory kept by dreamlane as markdown notes.',
  '- At the start of a session, read MEMORY.md (the index, below), current-state.md (what is true now) and',
  '  recent-context.md (the last few days). Trust them over guesses; never claim to remember what they do not say.',
  "- Before answering about the user's past, people, plans or preferences, memory_search; memory_read a hit's",
  '  note when the snippet is not enough.',
  "- When the user asks you to remember something, memory_note it in a short line. It lands in today's daily",
  '  note; the next dream files it into the memory files.',
  '- dream, dream_status and dream_review consolidate chat history into memory; use them only when asked.',
].join('\n')

/**
 * The contract followed by the three core memory files as they are now (a missing one says so), each with its
 * secrets withheld but for the kinds the user keeps: a line written by hand since the last dream may hold one.
 */
export async function startupMemoryText(
  paths: WorkspacePaths,
  keepKinds: readonly SecretKind[] = [],
): Promise<string> {
  const parts = [STARTUP_CONTRACT]
  for (const name of CORE_MEMORY_FILES) {
    const text = await readFile(join(paths.memory, name), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT')
        return `(notes/memory/${name} does not exist yet: the first dream writes it)`
      throw error
    })
    parts.push(`--- notes/memory/${name} ---\n${withholdSecrets(text.trimEnd(), { keepKinds }).text}`)
  }
  return parts.join('\n\n')
}
