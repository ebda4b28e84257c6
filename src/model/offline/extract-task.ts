// Fact extraction for a large window, in a thread of its own (see facts-of-window.ts).
import { lowerThreadPriority } from '../../threads/thread-priority.js'
import { serveThreadTask } from '../../threads/thread-task.js'
import { extractInOrder } from './extract.js'
import type { WindowMessage } from './types.js'

// Background work like the engine's own thread: the event loop's thread gets a core first.
lowerThreadPriority()

serveThreadTask((data) => {
  const { messages, timeZone } = data as { messages: WindowMessage[]; timeZone: string }
  // Already in saidInOrder's order: the parent split that list.
  return extractInOrder(messages, timeZone)
})
