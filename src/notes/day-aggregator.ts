// Per-day counts and DREAM_CUES of a window, gathered from its messages as they stream past oldest first.
// Everything it hands back is plain data, so a worker thread can gather days and the main thread write them.
import type { PrivacyRules } from '../privacy/rules.js'
import type { MessageRow } from '../db/messages.js'
import { startOfLocalDay, type DayWindow } from '../time/local-day.js'
import { CueCollector, type CueSettings } from './cues.js'
import { MessageTally } from './tally.js'

/** The window as gathering needs it: plain data (it crosses into worker threads). */
export interface GatherPlan {
  days: readonly string[]
  /** Start instant (ms) of each day; a day ends where the next starts, the last at `endMs`. */
  starts: readonly number[]
  endMs: number
  /** Per day: the instant (ms) its summary covers up to, or null when the whole day still needs summarising. */
  watermarks: readonly (number | null)[]
  settings: CueSettings
  /** What the day's counts and cues must not see (excluded chats, private stretches, forgotten sentences). */
  privacy?: PrivacyRules
}

/** The plan for `window`, with each day's watermark (missing: the whole day needs summarising). */
export function gatherPlanOf(
  window: DayWindow,
  watermarks: ReadonlyMap<string, number | null>,
  settings: CueSettings,
  privacy?: PrivacyRules,
): GatherPlan {
  return {
    ...(privacy ? { privacy } : {}),
    days: window.days,
    starts: window.days.map((day) => startOfLocalDay(day, window.timeZone).getTime()),
    endMs: window.end.getTime(),
    watermarks: window.days.map((day) => watermarks.get(day) ?? null),
    settings,
  }
}

/** A run of days `[from, to)` by index into the plan's days. */
export interface DayRange {
  from: number
  to: number
}

/** What the front matter reports of a day: every message of it. */
export interface DayCounts {
  total: number
  user: number
  assistant: number
  /** UTF-8 bytes of the messages' content. */
  bytes: number
  /** ISO UTC of the first and last message. */
  first: string | null
  last: string | null
  trees: number
  chats: number
}

/** One day with messages, gathered. */
export interface GatheredDay {
  day: string
  counts: DayCounts
  /** The slice still to summarise (the whole day, or what came after the watermark). */
  slice: { total: number; first: string | null }
  /** The inside of the day's DREAM_CUES comment for that slice. */
  cues: string
  watermarkMs: number | null
}

interface DayState {
  index: number
  tally: MessageTally
  cues: CueCollector
  watermarkMs: number | null
}

// `Date#toISOString()` form: stored timestamps are nearly always in it already, and then need no new Date.
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** Start (ms) of `range`'s first day and end (ms) of its last. */
export function boundsOf(plan: GatherPlan, range: DayRange): { startMs: number; endMs: number } {
  return {
    startMs: plan.starts[range.from] as number,
    endMs: range.to >= plan.days.length ? plan.endMs : (plan.starts[range.to] as number),
  }
}

const DAY_MS = 86_400_000

/**
 * What a thread gathering `range` reads: the range's days and one day more each side (within the window), as
 * timestamp text. The window is read by text and placed by instant; ISO text and its instant are less than a day
 * apart (whatever the offset), so every message of the range's days is in there.
 */
export function readBoundsOf(plan: GatherPlan, range: DayRange): { start: string; end: string } {
  const { startMs, endMs } = boundsOf(plan, range)
  const windowStartMs = plan.starts[0] as number
  return {
    start: new Date(Math.max(windowStartMs, startMs - DAY_MS)).toISOString(),
    end: new Date(Math.min(plan.endMs, endMs + DAY_MS)).toISOString(),
  }
}

/** Index of the plan's day holding `ms` (binary search over the days' start instants). */
export function dayIndexOf(plan: GatherPlan, ms: number): number {
  const starts = plan.starts
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if ((starts[mid] as number) <= ms) low = mid
    else high = mid - 1
  }
  return low
}

/**
 * Takes the window's messages oldest first (in the order the window read gives them) and keeps, for each day of
 * `range`, the counts of all its messages and the cues of its slice after the watermark. Messages outside the
 * range are ignored.
 */
export class DayAggregator {
  readonly #plan: GatherPlan
  readonly #startMs: number
  readonly #endMs: number
  readonly #days = new Map<number, DayState>()
  /** Messages arrive oldest first, so the current day is remembered and searched for only when left behind. */
  #current: DayState | undefined
  #currentEndMs = 0
  /** Messages before this instant are on days already handed out. */
  #handedOutEndMs = -Infinity

  constructor(plan: GatherPlan, range: DayRange = { from: 0, to: plan.days.length }) {
    this.#plan = plan
    const bounds = boundsOf(plan, range)
    this.#startMs = bounds.startMs
    this.#endMs = bounds.endMs
  }

  /** Whether `ms` falls on one of the range's days. */
  covers(ms: number): boolean {
    return ms >= this.#startMs && ms < this.#endMs
  }

  /** Whether the day holding `ms` (one of the range's) was handed out already by takeDaysEndingBy. */
  isHandedOut(ms: number): boolean {
    return ms < this.#handedOutEndMs
  }

  /**
   * The days of the range that end by `ms`, gathered (those with messages, in window order), and forgotten: a
   * message for one of them later on is the caller's to refuse (isHandedOut).
   */
  takeDaysEndingBy(ms: number): GatheredDay[] {
    const taken: DayState[] = []
    for (const state of this.#days.values()) if (this.#endOf(state.index) <= ms) taken.push(state)
    for (const state of taken) this.#days.delete(state.index)
    if (this.#current && this.#endOf(this.#current.index) <= ms) this.#current = undefined
    // Up to the start of the day holding `ms`: that day is still open.
    const openFromMs =
      ms >= this.#endMs ? this.#endMs : (this.#plan.starts[dayIndexOf(this.#plan, ms)] as number)
    this.#handedOutEndMs = Math.max(this.#handedOutEndMs, openFromMs)
    return taken.sort((a, b) => a.index - b.index).map(gatheredOf(this.#plan))
  }

  /** `ms` is the message's instant, when the caller parsed it already. */
  add(message: MessageRow, ms = Date.parse(message.timestamp)): void {
    if (Number.isNaN(ms) || ms < this.#startMs || ms >= this.#endMs) return
    let state = this.#current
    if (state === undefined || ms < (this.#plan.starts[state.index] as number) || ms >= this.#currentEndMs) {
      state = this.#stateAt(dayIndexOf(this.#plan, ms))
      this.#current = state
      this.#currentEndMs = (this.#plan.starts[state.index + 1] as number | undefined) ?? this.#plan.endMs
    }
    const iso = CANONICAL_ISO.test(message.timestamp) ? message.timestamp : new Date(ms).toISOString()
    // Without a watermark the slice is the whole day, and the cues' own tally is the day's.
    if (state.watermarkMs === null) return state.cues.add(message, iso)
    state.tally.add(message, iso)
    if (ms > state.watermarkMs) state.cues.add(message, iso)
  }

  /** The days that had messages (and were not handed out), in window order. */
  gathered(): GatheredDay[] {
    return [...this.#days.values()].sort((a, b) => a.index - b.index).map(gatheredOf(this.#plan))
  }

  #endOf(index: number): number {
    return (this.#plan.starts[index + 1] as number | undefined) ?? this.#plan.endMs
  }

  #stateAt(index: number): DayState {
    let state = this.#days.get(index)
    if (!state) {
      const watermarkMs = this.#plan.watermarks[index] ?? null
      state = { index, tally: new MessageTally(), cues: new CueCollector(this.#plan.settings), watermarkMs }
      this.#days.set(index, state)
    }
    return state
  }
}

function gatheredOf(plan: GatherPlan): (state: DayState) => GatheredDay {
  return (state) => ({
    day: plan.days[state.index] as string,
    counts: countsOf(state.watermarkMs === null ? state.cues.tally : state.tally),
    slice: { total: state.cues.tally.total, first: state.cues.tally.first },
    cues: state.cues.render(),
    watermarkMs: state.watermarkMs,
  })
}

function countsOf(tally: MessageTally): DayCounts {
  return {
    total: tally.total,
    user: tally.user,
    assistant: tally.assistant,
    bytes: tally.bytes,
    first: tally.first,
    last: tally.last,
    trees: tally.trees.size,
    chats: tally.chats.size,
  }
}
