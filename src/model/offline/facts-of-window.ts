// The window's facts. For a large window, the earlier part of what the user said is extracted in a thread of its
// own while the engine's thread writes the day summaries and then extracts the rest, so a busy week uses both
// cores; a small window's facts are extracted inline, where a thread's start-up (loading the NLP libraries again)
// would cost more than it saves. Facts depend only on their own message, so the parts join in order.
import { runThreadTask, threadModule } from '../../threads/thread-task.js'
import { extractInOrder, saidInOrder } from './extract.js'
import type { Fact, WindowMessage } from './types.js'

/** From this many messages said by the user, part of the extraction runs in its own thread. */
export const THREADED_EXTRACTION_MIN = 4000

/**
 * Share of the user's messages (oldest first) the thread takes. The engine's thread writes the summaries first
 * (about a third of the extraction's time on a busy week), then extracts the rest.
 */
const THREAD_SHARE = 0.6

export interface FactExtraction {
  /** The window's facts, oldest message first: the same facts, in the same order, however the work was split. */
  finish(): Promise<Fact[]>
}

export function startFactExtraction(
  messages: readonly WindowMessage[],
  timeZone: string,
  signal: AbortSignal,
): FactExtraction {
  const said = saidInOrder(messages)
  if (said.length < THREADED_EXTRACTION_MIN) return { finish: () => extractInOrder(said, timeZone) }
  const split = Math.round(said.length * THREAD_SHARE)
  const task = threadModule(import.meta.url, './extract-task')
  const earlier = runThreadTask<Fact[]>(task, { messages: said.slice(0, split), timeZone }, { signal })
  // Awaited in finish(); a turn that stops before then must not leave the rejection unhandled.
  earlier.catch(() => undefined)
  return {
    finish: async () => {
      const later = await extractInOrder(said.slice(split), timeZone)
      return [...(await earlier), ...later]
    },
  }
}
