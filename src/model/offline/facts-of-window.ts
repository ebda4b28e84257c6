// The window's facts. For a large window, the earlier part of what the user said is extracted in a thread of its
// own while the engine's thread writes the day summaries and then extracts the rest, so a busy week uses both
// cores; a small window's facts are extracted inline, where a thread's start-up (loading the NLP libraries again)
// would cost more than it saves. Facts depend only on their own message, so the parts join in order (then a day put
// right finds the plan it amends across them).
import { parseFrontMatter } from '../../notes/front-matter.js'
import { startThreadTask, threadModule, type EarlyThreadTask } from '../../threads/thread-task.js'
import { extractInOrder, resolveAmendments, saidInOrder } from './extract.js'
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

export interface FactExtractor {
  /**
   * Starts extracting the facts of the window's messages (call once); a thread, when used, takes `threadShare` of
   * them (oldest first). @default THREAD_SHARE
   */
  start(messages: readonly WindowMessage[], threadShare?: number): FactExtraction
  /** Ends a thread that is no longer needed (the turn stopped before, or after, using it). */
  stop(): void
}

/**
 * User messages the seeded daily notes count for the window: known before a single message is read, so the
 * extraction thread of a large window can load its libraries while the messages are gathered.
 */
export function expectedUserMessages(dailyNotes: Iterable<string>): number {
  let total = 0
  for (const note of dailyNotes) {
    try {
      total += parseFrontMatter(note).frontMatter.messages_user
    } catch {
      // A note that does not parse counts nothing; the window's real size still decides in start().
    }
  }
  return total
}

export function prepareFactExtraction(
  expectedUser: number,
  timeZone: string,
  signal: AbortSignal,
): FactExtractor {
  const stopped = new AbortController()
  const options = { signal: AbortSignal.any([signal, stopped.signal]) }
  const task = threadModule(import.meta.url, './extract-task')
  const startThread = (): EarlyThreadTask<Fact[]> => {
    const thread = startThreadTask<Fact[]>(task, options)
    // Awaited in finish(); a turn that stops before then must not leave the rejection unhandled.
    thread.result.catch(() => undefined)
    return thread
  }
  const early = expectedUser >= THREADED_EXTRACTION_MIN ? startThread() : null
  return {
    start: (messages, threadShare = THREAD_SHARE) => {
      const said = saidInOrder(messages)
      // A thread already loading is used even if the notes overcounted: its start-up is paid.
      if (early === null && said.length < THREADED_EXTRACTION_MIN) {
        return { finish: async () => resolveAmendments(said, await extractInOrder(said, timeZone)) }
      }
      const thread = early ?? startThread()
      const split = Math.round(said.length * Math.min(1, Math.max(0, threadShare)))
      thread.send({ messages: said.slice(0, split), timeZone })
      return {
        finish: async () => {
          const later = await extractInOrder(said.slice(split), timeZone)
          return resolveAmendments(said, [...(await thread.result), ...later])
        },
      }
    },
    stop: () => stopped.abort(new Error('the fact extraction is no longer needed')),
  }
}
