// Triggers dreams, one per workspace at a time: a trigger while one is queued or running (in this process or
// another) coalesces onto it, whichever chat it came from; the rest run on the workspace's `dream` lane.
import { setTimeout as sleep } from 'node:timers/promises'
import { readLock, staleReason } from '../notes/lock.js'
import type { DreamDeps } from './deps.js'
import { isSweepMode, type DreamRequest, type RunRecord } from './types.js'

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

export class DreamQueue {
  readonly #deps: DreamDeps
  #active: { runId: string; done: Promise<RunRecord> } | null = null

  constructor(deps: DreamDeps) {
    this.#deps = deps
  }

  get activeRunId(): string | null {
    return this.#active?.runId ?? null
  }

  trigger(request: DreamRequest): TriggerResult {
    const { runs } = this.#deps
    if (this.#active) {
      const run = runs.noteCoalesced(this.#active.runId)
      return { run, coalesced: true, done: this.#active.done }
    }
    const foreign = this.#foreignActiveRun()
    if (foreign) {
      const run = runs.noteCoalesced(foreign.id)
      return { run, coalesced: true, done: this.#waitForForeign(run.id) }
    }
    const run = runs.open(request)
    this.#deps.onEvent?.({ type: 'queued', run })
    const done = this.#deps.lanes
      // The lifecycle and everything it drives (backup, seeding, tools, ledger) load with the first dream,
      // so a process that only reads status never imports them.
      .runDream(async () =>
        isSweepMode(request.mode)
          ? (await import('./sweep.js')).runSweep(run.id, request, this.#deps)
          : (await import('./run.js')).runDream(run.id, request, this.#deps),
      )
      .finally(() => {
        if (this.#active?.runId === run.id) this.#active = null
      })
    this.#active = { runId: run.id, done }
    return { run, coalesced: false, done }
  }

  /** A run queued or running in another process on the same workspace, recent enough to be real. */
  #foreignActiveRun(): RunRecord | null {
    const { runs, clock, config } = this.#deps
    const horizon = clock.now().getTime() - config.dream.runTimeoutMs
    const candidates = runs.list({ status: ['queued', 'running'], limit: 1 })
    return candidates.find((run) => new Date(run.createdAt).getTime() > horizon) ?? null
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
    await this.#active?.done.catch(() => undefined)
  }
}
