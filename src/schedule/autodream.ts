// AutoDream: croner computes the next fire time in the configured zone; injected timers wait for it.
import { Cron } from 'croner'
import type { Clock } from '../clock.js'
import { ConfigError } from '../errors.js'
import { isHostZone, isUtcZone } from '../time/local-day.js'
import { MAX_TIMER_MS, type Timers } from './timers.js'

export interface AutoDreamOptions {
  cron: string
  timeZone: string
  clock: Clock
  timers: Timers
  /** The config key the pattern came from, named when it is invalid. @default 'autoDream.cron' */
  key?: string
  /** Called when the schedule fires (the gate cascade decides whether a dream really runs). */
  onFire: () => void | Promise<void>
}

function parsePattern(cron: string, timeZone: string, key: string): Cron {
  try {
    // In UTC a fixed offset, and in the process's own zone (see setHostZone) its local time, give the same times
    // without croner's Intl formatter (ICU set-up, ~12 ms of a start).
    const zone = isUtcZone(timeZone) ? { utcOffset: 0 } : isHostZone(timeZone) ? {} : { timezone: timeZone }
    return new Cron(cron, { ...zone, paused: true })
  } catch (error) {
    throw new ConfigError(
      [{ key, message: `not a valid cron pattern: ${(error as Error).message}` }],
      'settings',
    )
  }
}

/** Next fire times after `from` (exclusive) — shared by the scheduler and `status`. */
export function nextFireTimes(
  cron: string,
  timeZone: string,
  from: Date,
  count = 1,
  key = 'autoDream.cron',
): Date[] {
  const pattern = parsePattern(cron, timeZone, key)
  const out: Date[] = []
  let cursor = from
  for (let i = 0; i < count; i++) {
    const next = pattern.nextRun(cursor)
    if (!next) break
    out.push(next)
    cursor = next
  }
  return out
}

/** The last fire time before `at`, or null when the pattern never fired before it. */
export function previousFireTime(
  cron: string,
  timeZone: string,
  at: Date,
  key = 'autoDream.cron',
): Date | null {
  return parsePattern(cron, timeZone, key).previousRuns(1, at)[0] ?? null
}

export class AutoDreamScheduler {
  readonly #options: AutoDreamOptions
  #handle: unknown = null
  #next: Date | null = null

  constructor(options: AutoDreamOptions) {
    nextFireTimes(options.cron, options.timeZone, options.clock.now(), 1, options.key) // validates up front
    this.#options = options
  }

  get nextRunAt(): Date | null {
    return this.#next
  }

  start(): void {
    this.stop()
    this.#arm()
  }

  stop(): void {
    if (this.#handle !== null) this.#options.timers.clearTimeout(this.#handle)
    this.#handle = null
    this.#next = null
  }

  #arm(): void {
    const { clock, timers, cron, timeZone } = this.#options
    const [next] = nextFireTimes(cron, timeZone, clock.now())
    this.#next = next ?? null
    if (!next) return
    const wait = next.getTime() - clock.now().getTime()
    this.#handle = timers.setTimeout(() => void this.#tick(next), Math.max(0, Math.min(wait, MAX_TIMER_MS)))
  }

  async #tick(target: Date): Promise<void> {
    this.#handle = null
    // A timer may wake early (re-armed long waits, clock adjustments): only fire once the target has passed.
    if (this.#options.clock.now().getTime() >= target.getTime()) {
      try {
        await this.#options.onFire()
      } catch {
        // onFire records its own failures (a run record); the schedule must keep going regardless.
      }
    }
    if (this.#next === target) this.#arm()
  }
}

/** Auto retry delays: 5, 10, 20, 40, 60 … minutes by default; null once the attempts are used up. */
export function retryDelayMs(attempt: number, delaysMinutes: readonly number[]): number | null {
  const minutes = delaysMinutes[attempt]
  return minutes === undefined ? null : minutes * 60_000
}
