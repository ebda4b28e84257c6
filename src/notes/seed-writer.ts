// Writes seeded daily notes as their days are gathered, a few at a time, so the writing overlaps the reading of
// the rest of the window; each note is judged against the note the seed started from, even when a day is
// gathered twice (a split window read again whole).
import { NoteMalformedError } from '../errors.js'
import { writeFileAtomic } from './atomic-write.js'
import { DirSyncs } from './dir-syncs.js'
import { readDailyNoteFile } from './daily-files.js'
import { dayStateOf, renderDailyNote, type DailyNote, type DayState } from './daily-note.js'
import type { GatheredDay } from './day-aggregator.js'
import { dailyNotePath, type WorkspacePaths } from './paths.js'
import { buildSeededNote } from './seed-note.js'

/** The note on disk when seeding began: none, one to build on, or one that cannot be trusted. */
export type Existing = { text: string; note: DailyNote } | { problem: string } | null

export type SeedOutcome = 'created' | 'updated' | 'unchanged' | 'skipped'

export interface SeededDay {
  day: string
  path: string
  /** The state the note is left in (a skipped note is reported as unsummarised). */
  state: DayState
  /** Messages on that local day. */
  messages: number
  /** UTF-8 bytes of their content. */
  bytes: number
  outcome: SeedOutcome
}

export interface SeedProblem {
  path: string
  reason: string
}

export interface SeededNote {
  day: SeededDay
  problem?: SeedProblem
  isChanged: boolean
}

/** Notes written at once: their reads, writes and fsyncs overlap on libuv's pool instead of queueing one by one. */
const WRITES_AT_ONCE = 8

interface DayWrite {
  aggregate: GatheredDay
  done: Promise<SeededNote>
}

export class SeedWriter {
  readonly #paths: WorkspacePaths
  readonly #timeZone: string
  readonly #existing: ReadonlyMap<string, Existing>
  /** The notes' folder is synced once, when the writes are reported done, not once per note. */
  readonly #dirSyncs: DirSyncs
  readonly #writes = new Map<string, DayWrite>()
  /** The text this seed last wrote to each day's note (a day's writes run one after another). */
  readonly #written = new Map<string, string>()
  #running = 0
  readonly #waiting: (() => void)[] = []

  constructor(
    paths: WorkspacePaths,
    timeZone: string,
    existing: ReadonlyMap<string, Existing>,
    dirSyncs = new DirSyncs(),
  ) {
    this.#paths = paths
    this.#timeZone = timeZone
    this.#existing = existing
    this.#dirSyncs = dirSyncs
  }

  /** Starts writing the day's note from `aggregate`; a day written from another aggregate is written again after. */
  write(aggregate: GatheredDay): void {
    const previous = this.#writes.get(aggregate.day)
    if (previous?.aggregate === aggregate) return
    const after = previous ? previous.done.catch(() => undefined) : Promise.resolve()
    const write = { aggregate, done: after.then(() => this.#limited(() => this.#seed(aggregate))) }
    // Failures are collected by `finish` or `settle`; none may go unhandled meanwhile.
    write.done.catch(() => undefined)
    this.#writes.set(aggregate.day, write)
  }

  /**
   * Writes any of `days` (the final gathering, window order) not written from the same aggregate, then waits for
   * every note and syncs their folder; `onDone` is told of each in window order (a note's rename may not be
   * durable until this returns). The first error is thrown once no write is running.
   */
  async finish(
    days: readonly GatheredDay[],
    onDone?: (day: string, done: number) => void,
  ): Promise<SeededNote[]> {
    for (const day of days) this.write(day)
    const seeded: SeededNote[] = []
    try {
      for (const [position, day] of days.entries()) {
        seeded.push(await (this.#writes.get(day.day) as DayWrite).done)
        onDone?.(day.day, position + 1)
      }
    } catch (error) {
      await this.settle()
      throw error
    }
    await this.#dirSyncs.flush()
    return seeded
  }

  /** Waits until no write is running or queued (whatever their outcome), then syncs the notes' folder. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.#writes.values()].map((write) => write.done))
    await this.#dirSyncs.flush()
  }

  async #limited<Result>(task: () => Promise<Result>): Promise<Result> {
    if (this.#running >= WRITES_AT_ONCE) await new Promise<void>((resolve) => this.#waiting.push(resolve))
    this.#running++
    try {
      return await task()
    } finally {
      this.#running--
      this.#waiting.shift()?.()
    }
  }

  async #seed(aggregate: GatheredDay): Promise<SeededNote> {
    const day = aggregate.day
    const path = dailyNotePath(this.#paths, day)
    const row = { day, path, messages: aggregate.counts.total, bytes: aggregate.counts.bytes }
    const before = this.#existing.get(day) ?? null
    if (before && 'problem' in before) {
      return {
        day: { ...row, state: 'unsummarised', outcome: 'skipped' },
        problem: { path, reason: before.problem },
        isChanged: false,
      }
    }
    const note = buildSeededNote(day, this.#timeZone, aggregate, before?.note ?? null)
    const text = renderDailyNote(note)
    const original = before?.text ?? null
    const onDisk = this.#written.get(day) ?? original
    if (text !== onDisk) {
      if (!(await isStill(path, onDisk))) {
        return {
          day: { ...row, state: 'unsummarised', outcome: 'skipped' },
          problem: { path, reason: 'the note changed while seeding; left as it is for the next run' },
          isChanged: false,
        }
      }
      await writeFileAtomic(path, text, { dirSyncs: this.#dirSyncs })
      this.#written.set(day, text)
    }
    const outcome = text === original ? 'unchanged' : original === null ? 'created' : 'updated'
    return { day: { ...row, state: dayStateOf(note), outcome }, isChanged: outcome !== 'unchanged' }
  }
}

/** Whether the note still holds `text` (null: still missing); someone (a person, an editor) may have saved it. */
async function isStill(path: string, text: string | null): Promise<boolean> {
  try {
    return (await readDailyNoteFile(path)) === text
  } catch (error) {
    if (error instanceof NoteMalformedError) return false
    throw error
  }
}
