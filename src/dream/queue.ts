// Triggers dreams, one per workspace at a time: a trigger while one is queued or running (in this process or
// another) coalesces onto it, whichever chat it came from; the rest run on the workspace's `dream` lane.
import { setTimeout as sleep } from 'node:timers/promises'
import { readLock, staleReason } from '../notes/lock.js'
import type { DreamDeps } from './deps.js'
import { isSweepMode, type DreamRequest, type RunRecord, type SweepMode } from './types.js'

/** How often a run started by another process is checked for completion. */
const FOREIGN_POLL_MS = 250
/** A cap on polls, for clocks that do not move (tests): about the default run timeout. */
const FOREIGN_MAX_POLLS = (30 * 60 * 1000) / FOREIGN_POLL_MS

export interface TriggerResult {
  run: RunRecord
  /** True when this trigger was folded into a run already queued or running. */
  coalesced: boolean
  /** Settles with the finished record (of the run this trigger joined). */
  done: Promise<RunRecord>
}

/** What a trigger may join: a dream joins the dream in flight, a sweep only a sweep of its own phase. */
type Family = 'dream' | SweepMode

export class DreamQueue {
  readonly #deps: DreamDeps
  readonly #active = new Map<Family, { runId: string; done: Promise<RunRecord> }>()

  constructor(deps: DreamDeps) {
    this.#deps = deps
  }

  /** The dream in flight in this process, else a sweep in flight. */
  get activeRunId(): string | null {
    return (this.#active.get('dream') ?? [...this.#active.values()][0])?.runId ?? null
  }

  trigger(request: DreamRequest): TriggerResult {
    const { runs } = this.#deps
    // A sweep never swallows a dream (nor a dream a sweep): different families queue one after the other
    // on the one dream lane, so the lock still keeps them apart.
    const family: Family = isSweepMode(request.mode) ? request.mode : 'dream'
    const active = this.#active.get(family)
    if (active) {
      const run = runs.noteCoalesced(active.runId)
      return { run, coalesced: true, done: active.done }
    }
    const foreign = family === 'dream' ? this.#foreignActiveRun() : null
    if (foreign) {
      const run = runs.noteCoalesced(foreign.id)
      return { run, coalesced: true, done: this.#waitForForeign(run.id) }
    }
    const run = runs.open(request)
    this.#deps.onEvent?.({ type: 'queued', run })
    const done = this.#deps.lanes
      // The lifecycle and everything it drives (backup, seeding, tools, ledger) load with the first dream,
      // so a process that only reads status never imports them.
      .runDream(async () => {
        const { runElsewhere } = this.#deps
        if (runElsewhere) return runElsewhere(run.id, request)
        return isSweepMode(request.mode)
          ? (await import('./sweep.js')).runSweep(run.id, request, this.#deps)
          : (await import('./run.js')).runDream(run.id, request, this.#deps)
      })
      .finally(() => {
        if (this.#active.get(family)?.runId === run.id) this.#active.delete(family)
      })
    this.#active.set(family, { runId: run.id, done })
    return { run, coalesced: false, done }
  }

  /** A run queued or running in another process on the same workspace, recent enough to be real. */
  #foreignActiveRun(): RunRecord | null {
    const { runs, clock, config } = this.#deps
    const horizon = clock.now().getTime() - config.dream.runTimeoutMs
    const candidates = runs.list({ status: ['queued', 'running'], limit: 5 })
    return (
      candidates.find((run) => !isSweepMode(run.mode) && new Date(run.createdAt).getTime() > horizon) ?? null
    )
  }

  /**
   * Polls state.db until the other process's run finishes. When its lock is gone (the process died) the run
   * is marked lost, as start-up recovery would; after the run timeout it is returned as it stands.
   */
  async #waitForForeign(id: string): Promise<RunRecord> {
    const { runs, clock, config, paths, signal } = this.#deps
    const deadline = clock.now().getTime() + config.dream.runTimeoutMs
    for (let polls = 0; ; polls++) {
      const run = runs.get(id)
      if (run.status !== 'queued' && run.status !== 'running') return run
      if (signal?.aborted || clock.now().getTime() > deadline || polls > FOREIGN_MAX_POLLS) return run
      const holder = await readLock(paths.lockFile)
      const live = holder && staleReason(holder, { clock, staleAfterMs: config.dream.runTimeoutMs }) === null
      // A queued run may not hold the lock yet; a few polls without one mean nobody is coming back.
      if (!live && polls >= 8) {
        runs.markAbandonedLost('the process running it stopped before it finished')
        return runs.get(id)
      }
      await sleep(FOREIGN_POLL_MS)
    }
  }

  /** Resolves when the active run (if any) has finished. */
  async idle(): Promise<void> {
    await Promise.all([...this.#active.values()].map((active) => active.done.catch(() => undefined)))
  }
}
