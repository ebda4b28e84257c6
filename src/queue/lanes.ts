// Queue lanes on p-queue: one serial lane per `chat:<jid>`, one `dream` lane for the workspace, and a global cap
// on model calls. One dream runs per workspace at a time (one notes/ tree, one lock), whatever chat asked for it.
import PQueue from 'p-queue'

export type LaneKind = 'chat' | 'dream'

/** The name of the workspace's dream lane. */
export const DREAM_LANE = 'dream'

export interface LaneManagerOptions {
  /** Concurrent model calls across all lanes. @default 2 */
  maxModelCalls?: number
}

export class LaneManager {
  readonly #lanes = new Map<string, PQueue>()
  readonly #modelSlots: PQueue

  constructor(options: LaneManagerOptions = {}) {
    this.#modelSlots = new PQueue({ concurrency: options.maxModelCalls ?? 2 })
  }

  #lane(name: string): PQueue {
    let lane = this.#lanes.get(name)
    if (!lane) {
      lane = new PQueue({ concurrency: 1 })
      this.#lanes.set(name, lane)
    }
    return lane
  }

  /** Runs a turn of chat `jid`, after every turn of that chat queued before it. */
  runChat<T>(jid: string, task: () => Promise<T>): Promise<T> {
    return this.#lane(`chat:${jid}`).add(task) as Promise<T>
  }

  /** Runs a dream on the workspace's one dream lane, after every dream queued before it. */
  runDream<T>(task: () => Promise<T>): Promise<T> {
    return this.#lane(DREAM_LANE).add(task) as Promise<T>
  }

  /** Runs one model call inside the global cap. Interactive calls jump ahead of queued dream calls. */
  withModelSlot<T>(kind: LaneKind, task: () => Promise<T>): Promise<T> {
    return this.#modelSlots.add(task, { priority: kind === 'chat' ? 1 : 0 }) as Promise<T>
  }

  /** True while any chat lane has a turn running or waiting. */
  isInteractiveBusy(): boolean {
    for (const [name, lane] of this.#lanes) {
      if (name.startsWith('chat:') && lane.size + lane.pending > 0) return true
    }
    return false
  }

  /**
   * Called by a dream at each tool-call boundary: waits while interactive turns run or wait, so an
   * interactive turn never waits for a whole dream — at most for one tool call.
   */
  async yieldToInteractive(): Promise<void> {
    while (this.isInteractiveBusy()) {
      const busy = [...this.#lanes]
        .filter(([name, lane]) => name.startsWith('chat:') && lane.size + lane.pending > 0)
        .map(([, lane]) => lane.onIdle())
      await Promise.race(busy)
    }
  }

  async onIdle(): Promise<void> {
    await Promise.all([...this.#lanes.values()].map((lane) => lane.onIdle()))
  }
}
