// The server's event bus: dream progress and new chat messages, numbered, kept briefly for late subscribers.
import type { DreamEvent } from '../dream/deps.js'
import type { ChatMessage } from '../chat/chat-message.js'
import { summarizeRun } from './run-view.js'

export type HubEventName = 'queued' | 'step' | 'tool' | 'finished' | 'message' | 'restored'

export interface HubEvent {
  /** Increasing from 1; the SSE `id`, so a reconnecting client resumes after the last one it saw. */
  id: number
  name: HubEventName
  runId: string | null
  chatJid: string | null
  data: unknown
}

export type HubListener = (event: HubEvent | null) => void

/** Events kept for replay: a whole dream's progress (hundreds of tool calls) fits. */
const HISTORY_LIMIT = 2_000

export class EventHub {
  readonly #listeners = new Set<HubListener>()
  readonly #history: HubEvent[] = []
  readonly #workspace: string
  #nextId = 1
  #closed = false

  /** `workspace` turns the absolute paths in run records into the relative ones pages show. */
  constructor(workspace: string) {
    this.#workspace = workspace
  }

  /** The id of the newest event, 0 before any. */
  get lastId(): number {
    return this.#nextId - 1
  }

  get isClosed(): boolean {
    return this.#closed
  }

  publish(
    name: HubEventName,
    data: unknown,
    scope: { runId?: string | null; chatJid?: string | null } = {},
  ): HubEvent {
    const event: HubEvent = {
      id: this.#nextId++,
      name,
      runId: scope.runId ?? null,
      chatJid: scope.chatJid ?? null,
      data,
    }
    this.#history.push(event)
    if (this.#history.length > HISTORY_LIMIT) this.#history.splice(0, this.#history.length - HISTORY_LIMIT)
    for (const listener of this.#listeners) listener(event)
    return event
  }

  /** The Dreamlane `onEvent` hook: run records go out as summaries (no transcript), the rest as they are. */
  publishDream(event: DreamEvent): HubEvent {
    switch (event.type) {
      case 'queued':
      case 'finished': {
        const run = summarizeRun(event.run, this.#workspace)
        return this.publish(event.type, { run }, { runId: run.id, chatJid: run.chatJid })
      }
      case 'step':
        return this.publish('step', event, { runId: event.runId })
      case 'tool':
        return this.publish('tool', event, { runId: event.runId })
    }
  }

  publishMessage(message: ChatMessage): HubEvent {
    return this.publish('message', { message }, { chatJid: message.chatJid })
  }

  /** Events after `afterId` still in the history, oldest first. */
  since(afterId = 0): HubEvent[] {
    return this.#history.filter((event) => event.id > afterId)
  }

  /** `listener(null)` means the hub closed: end the stream. Returns the unsubscribe function. */
  subscribe(listener: HubListener): () => void {
    if (this.#closed) {
      listener(null)
      return () => undefined
    }
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Ends every open stream (server shutdown), so closing the HTTP server does not wait on them. */
  close(): void {
    this.#closed = true
    for (const listener of this.#listeners) listener(null)
    this.#listeners.clear()
  }
}
