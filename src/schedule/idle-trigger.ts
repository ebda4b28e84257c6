// The session-idle trigger: a chat that had new messages and then went quiet for N minutes asks for a dream.
import type { Timers } from './timers.js'

export interface IdleTriggerOptions {
  idleMs: number
  timers: Timers
  /** Called once per quiet spell of a chat (the gate cascade still decides whether a dream runs). */
  onIdle: (chatJid: string) => void | Promise<void>
}

/** Debounced per chat: every message restarts that chat's wait, so only the end of a conversation fires. */
export class IdleTrigger {
  readonly #options: IdleTriggerOptions
  readonly #pending = new Map<string, unknown>()

  constructor(options: IdleTriggerOptions) {
    this.#options = options
  }

  noteMessage(chatJid: string): void {
    const { timers, idleMs } = this.#options
    const previous = this.#pending.get(chatJid)
    if (previous !== undefined) timers.clearTimeout(previous)
    const handle = timers.setTimeout(() => {
      this.#pending.delete(chatJid)
      Promise.resolve(this.#options.onIdle(chatJid)).catch(() => undefined) // onIdle records its own outcome
    }, idleMs)
    this.#pending.set(chatJid, handle)
  }

  stop(): void {
    for (const handle of this.#pending.values()) this.#options.timers.clearTimeout(handle)
    this.#pending.clear()
  }
}
