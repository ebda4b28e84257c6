// A real redis-server per test file (test/helpers/redis-process.ts), started and emptied by vitest hooks.
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { startRedisServer, type RedisServer } from './redis-process.js'

export {
  findOnPath,
  redisMode,
  SKIP_REDIS,
  startRedisServer,
  type RedisMode,
  type RedisServer,
} from './redis-process.js'

/**
 * One redis-server for the enclosing describe block: started before its tests, emptied before each, stopped
 * after. Returns the running server (call it inside a test or hook).
 */
export function useRedisServer(): () => RedisServer {
  let server: RedisServer | undefined
  beforeAll(async () => {
    server = await startRedisServer()
  })
  beforeEach(async () => {
    await server?.flush()
  })
  afterAll(async () => {
    await server?.stop()
  })
  return () => {
    if (!server) throw new Error('redis-server has not started')
    return server
  }
}
