// The fleet lock on real Redis: exclusive, renewed while held, freed by its holder only, expiring when it dies.
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fleetLockHolder, tryFleetLock } from '../../src/fleet/workspace-lock.js'
import { SKIP_REDIS, startRedisServer, type RedisServer } from '../helpers/redis-server.js'

describe.skipIf(SKIP_REDIS)('the fleet workspace lock', () => {
  let server: RedisServer
  const clients: Redis[] = []
  const client = () => {
    const redis = new Redis(server.url, { maxRetriesPerRequest: null })
    clients.push(redis)
    return redis
  }
  beforeAll(async () => {
    server = await startRedisServer()
  })
  afterAll(async () => {
    for (const redis of clients) redis.disconnect()
    await server?.stop()
  })

  it('lets one holder in at a time, per workspace, and hands it on after release', async () => {
    const [a, b] = [client(), client()]
    const first = await tryFleetLock(a, 'alice', { ttlMs: 5_000, holder: 'worker-a' })
    expect(first).not.toBeNull()
    expect(await tryFleetLock(b, 'alice', { ttlMs: 5_000, holder: 'worker-b' })).toBeNull()
    const other = await tryFleetLock(b, 'bob', { ttlMs: 5_000, holder: 'worker-b' })
    expect(other).not.toBeNull()
    expect(await fleetLockHolder(b, 'alice')).toMatch(/^worker-a /)
    await first?.release()
    const second = await tryFleetLock(b, 'alice', { ttlMs: 5_000, holder: 'worker-b' })
    expect(second?.isHeld).toBe(true)
    await second?.release()
    await other?.release()
  })

  it('stays held past its TTL while renewed, and expires once its holder is gone', async () => {
    const [a, b] = [client(), client()]
    const held = await tryFleetLock(a, 'carol', { ttlMs: 2_000, holder: 'worker-a' })
    // Several TTLs later the renewals kept it.
    await sleep(5_000)
    expect(held?.isHeld).toBe(true)
    expect(await tryFleetLock(b, 'carol', { ttlMs: 2_000, holder: 'worker-b' })).toBeNull()
    // The holder's connection dies (as with kill -9): nobody renews, and the key expires on its own.
    a.disconnect()
    let taken = null
    for (let i = 0; i < 100 && !taken; i++) {
      taken = await tryFleetLock(b, 'carol', { ttlMs: 5_000, holder: 'worker-b' })
      if (!taken) await sleep(100)
    }
    expect(taken).not.toBeNull()
    await taken?.release()
  })

  it('never frees a lock someone else took after its own expired', async () => {
    const [a, b] = [client(), client()]
    const stale = await tryFleetLock(a, 'dave', { ttlMs: 5_000, holder: 'worker-a' })
    await a.del('dreamlane:fleet:lock:dave') // as if it expired while worker-a was paused
    const fresh = await tryFleetLock(b, 'dave', { ttlMs: 5_000, holder: 'worker-b' })
    await stale?.release()
    expect(await fleetLockHolder(b, 'dave')).toMatch(/^worker-b /)
    await fresh?.release()
  })
})
