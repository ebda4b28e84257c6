// The fleet's workspace lock in Redis: one dream per workspace across every worker; it expires when its holder dies.
import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'

/** Deletes or extends the key only while it still holds our token, so a late holder never frees someone else's. */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
const EXTEND =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0"

export interface FleetLockOptions {
  /** The lock lives this long without a renewal: how soon a killed worker's workspace is free again. */
  ttlMs: number
  /** Says who holds it (shown by `fleet status`). */
  holder: string
}

export interface FleetLock {
  /** False once a renewal found the key gone or taken (Redis lost it, or the TTL ran out while we stalled). */
  readonly isHeld: boolean
  release(): Promise<void>
}

export function fleetLockKey(workspaceId: string): string {
  return `dreamlane:fleet:lock:${workspaceId}`
}

/** Takes the workspace's lock, or returns null when another worker holds it. Renews itself every ttl/3. */
export async function tryFleetLock(
  redis: Redis,
  workspaceId: string,
  options: FleetLockOptions,
): Promise<FleetLock | null> {
  const key = fleetLockKey(workspaceId)
  const token = `${options.holder} ${randomUUID()}`
  const taken = await redis.set(key, token, 'PX', options.ttlMs, 'NX')
  if (taken !== 'OK') return null
  let held = true
  const renew = setInterval(
    () => {
      redis
        .eval(EXTEND, 1, key, token, String(options.ttlMs))
        .then((extended) => {
          if (extended !== 1) held = false
        })
        // A failed renewal (Redis restarting) is retried on the next tick; the TTL covers two misses.
        .catch(() => undefined)
    },
    Math.max(50, Math.floor(options.ttlMs / 3)),
  )
  renew.unref()
  return {
    get isHeld() {
      return held
    },
    async release() {
      clearInterval(renew)
      held = false
      await redis.eval(RELEASE, 1, key, token)
    },
  }
}

/** Who holds the workspace's lock now, or null. */
export async function fleetLockHolder(redis: Redis, workspaceId: string): Promise<string | null> {
  return redis.get(fleetLockKey(workspaceId))
}
