// The auto-retry policy: a failed or degraded auto run is retried with backoff until the delays are used up.
import type { Logger } from 'pino'
import type { RunRecord } from '../dream/types.js'
import { retryDelayMs } from './autodream.js'
import type { Timers } from './timers.js'

export interface AutoRetryOptions {
  /** Minutes to wait before retry 1, 2, …; once used up, the run stays as it is. */
  delaysMinutes: readonly number[]
  timers: Timers
  log: Logger
  /** Re-runs run `id` (its mode, chat and window). */
  retry: (id: string) => void
}

export class AutoRetry {
  readonly #options: AutoRetryOptions
  readonly #pending = new Set<unknown>()
  #stopped = false

  constructor(options: AutoRetryOptions) {
    this.#options = options
  }

  /** Called with every finished run; schedules a retry when the policy says so. */
  consider(run: RunRecord): void {
    if (this.#stopped || run.mode !== 'auto' || (run.status !== 'failed' && run.status !== 'degraded')) return
    const { timers, log } = this.#options
    const delay = retryDelayMs(run.attempt - 1, this.#options.delaysMinutes)
    if (delay === null) {
      log.warn({ runId: run.id, attempt: run.attempt }, 'auto dream retries used up')
      return
    }
    const handle = timers.setTimeout(() => {
      this.#pending.delete(handle)
      if (!this.#stopped) this.#options.retry(run.id)
    }, delay)
    this.#pending.add(handle)
  }

  /** Cancels every pending retry; later runs are not considered. */
  stop(): void {
    this.#stopped = true
    for (const handle of this.#pending) this.#options.timers.clearTimeout(handle)
    this.#pending.clear()
  }
}
