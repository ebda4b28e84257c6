// Server-sent events from the hub: replay what the client missed, then live events, with keep-alive comments.
import type { Context } from 'hono'
import { streamSSE, type SSEStreamingApi } from 'hono/streaming'
import type { EventHub, HubEvent } from './events.js'

/** Proxies and browsers drop idle streams; a comment line this often keeps them open. */
const KEEP_ALIVE_MS = 15_000

export interface StreamOptions {
  /** Which events this stream carries. @default all */
  filter?: (event: HubEvent) => boolean
  /** The stream ends after sending an event this returns true for (e.g. its run finished). */
  endAfter?: (event: HubEvent) => boolean
  /** Replay events after this id (the Last-Event-ID header on reconnect). @default 0: the whole history */
  afterId?: number
  /** Sent first when the history has nothing for this stream (e.g. a run finished long ago). */
  fallback?: () => { name: string; data: unknown } | null
}

/** Streams hub events to one client until it disconnects, the stream's end event is sent, or the hub closes. */
export function streamHub(c: Context, hub: EventHub, options: StreamOptions = {}): Response {
  const filter = options.filter ?? (() => true)
  return streamSSE(c, async (stream) => {
    const queue: HubEvent[] = []
    let ended = false
    let wake: (() => void) | null = null
    // Subscribing and reading the history happen in one synchronous step, so no event falls between them.
    const unsubscribe = hub.subscribe((event) => {
      if (event === null) ended = true
      else if (filter(event)) queue.push(event)
      wake?.()
    })
    stream.onAbort(() => {
      ended = true
      wake?.()
    })
    const replay = hub.since(options.afterId ?? 0).filter(filter)
    queue.unshift(...replay)
    try {
      await stream.write('retry: 2000\n\n')
      if (replay.length === 0 && options.fallback) {
        const first = options.fallback()
        if (first) {
          await stream.writeSSE({ event: first.name, data: JSON.stringify(first.data) })
          return
        }
      }
      while (!ended) {
        const event = queue.shift()
        if (!event) {
          const idle = await waitForWork((resolve) => (wake = resolve))
          wake = null
          if (idle && !ended) await stream.write(': keep-alive\n\n')
          continue
        }
        await send(stream, event)
        if (options.endAfter?.(event)) break
      }
    } finally {
      unsubscribe()
    }
  })
}

async function send(stream: SSEStreamingApi, event: HubEvent): Promise<void> {
  await stream.writeSSE({ id: String(event.id), event: event.name, data: JSON.stringify(event.data) })
}

/** Resolves true after the keep-alive interval with nothing to do, false as soon as `register`'s callback runs. */
function waitForWork(register: (resolve: () => void) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(true), KEEP_ALIVE_MS)
    register(() => {
      clearTimeout(timer)
      resolve(false)
    })
  })
}

/** The Last-Event-ID header as a number, or 0. */
export function lastEventId(c: Context): number {
  const raw = c.req.header('last-event-id') ?? c.req.query('after') ?? ''
  const id = Number(raw)
  return Number.isInteger(id) && id > 0 ? id : 0
}
