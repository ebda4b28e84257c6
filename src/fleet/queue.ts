// Opening the fleet's dream queue for a producer or a reader, failing fast with a clear error when Redis is away.
import { Queue } from 'bullmq'
import { DreamlaneError } from '../errors.js'
import { DREAM_QUEUE } from './jobs.js'

/** Where Redis is when nobody says: the OS package's default. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'

/** How long a one-shot command waits for Redis before saying it is not there. */
const CONNECT_TIMEOUT_MS = 5_000

/**
 * The dream queue, connected and checked. One-shot commands (tick, trigger, status) should fail at once on a
 * Redis that is not there, so the connection does not retry; a long-running producer passes `retry: true`.
 */
export async function openDreamQueue(redisUrl: string, options: { retry?: boolean } = {}): Promise<Queue> {
  const queue = new Queue(DREAM_QUEUE, {
    connection: {
      url: redisUrl,
      connectTimeout: CONNECT_TIMEOUT_MS,
      ...(options.retry ? {} : { maxRetriesPerRequest: 1, retryStrategy: () => null }),
    },
  })
  // Connection errors also surface on the first command below; the event just must not go unhandled.
  queue.on('error', () => undefined)
  try {
    await queue.waitUntilReady()
  } catch (error) {
    await queue.close().catch(() => undefined)
    throw redisUnavailable(redisUrl, error)
  }
  return queue
}

export function redisUnavailable(redisUrl: string, cause: unknown): DreamlaneError {
  return new DreamlaneError(
    'REDIS_UNAVAILABLE',
    `could not reach Redis at ${redisUrl}: ${(cause as Error)?.message ?? String(cause)} ` +
      '(start it with `redis-server`, or pass --redis / set DREAMLANE_REDIS_URL)',
    { cause },
  )
}
