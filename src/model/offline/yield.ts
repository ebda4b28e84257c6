// Lets the event loop run between chunks of the offline engine's CPU work, so a dream over a busy week does
// not hold up chat turns or `/api/status` in the same process. One slicer for the whole engine: its steps
// share the loop, so they share the slice.
// In its worker thread the engine has the loop to itself: yielding there would only cost time.
import { isMainThread } from 'node:worker_threads'
import { TimeSlicer } from '../../time/slice.js'

const slicer = isMainThread ? new TimeSlicer() : null

/** Yields to the event loop when the engine's current time slice has run out (on the main thread only). */
export async function yieldToLoop(): Promise<void> {
  await slicer?.maybeYield()
}
