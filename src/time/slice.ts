// Time slices for long synchronous work: a loop checks `isDue()` between items and yields to the event loop when
// its slice has run out, so chat turns and HTTP requests in the same process never wait long behind it.
import { performance } from 'node:perf_hooks'
import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * Slice length. With the offline engine in its own thread, the main thread's slices (message pages, seeding a
 * small window) are what a chat turn waits behind: its p95 start latency during real offline dreams was 9.3 ms
 * with 10 ms slices, 2.3 ms with 2 ms and 0.83 ms with 0.5 ms. A yield (one setImmediate) costs microseconds:
 * the 40k-message dream took 13.8-14.5 s either way.
 */
export const DEFAULT_SLICE_MS = 0.5

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
