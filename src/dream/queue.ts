// Triggers dreams, one per workspace at a time: a trigger while one is queued or running (in this process or
// another) coalesces onto it, whichever chat it came from; the rest run on the workspace's `dream` lane.
import type { DreamDeps } from './deps.js'
import { runDream } from './run.js'
import type { DreamRequest, RunRecord } from './types.js'

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
      return { run, coalesced: true, done: Promise.resolve(run) }
    }
    const run = runs.open(request)
    this.#deps.onEvent?.({ type: 'queued', run })
    const done = this.#deps.lanes
      .runDream(() => runDream(run.id, request, this.#deps))
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

  /** Resolves when the active run (if any) has finished. */
  async idle(): Promise<void> {
    await this.#active?.done.catch(() => undefined)
  }
}
