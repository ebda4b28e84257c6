// Lets the event loop run between chunks of the offline engine's CPU work, so a dream over a busy week does
// not hold up chat turns or `/api/status` in the same process.
import { setImmediate as nextTurn } from 'node:timers/promises'

let lastYieldMs = 0

/** Yields to the event loop when more than `sliceMs` of work has run since the last yield. */
export async function yieldToLoop(sliceMs = 10): Promise<void> {
  const now = performance.now()
  if (now - lastYieldMs < sliceMs) return
  await nextTurn()
  lastYieldMs = performance.now()
}
