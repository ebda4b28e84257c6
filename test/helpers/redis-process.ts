// A real redis-server on a free loopback port in a temp dir, for the fleet tests and the fleet bench (no vitest
// here, so a bench can use it too); skipped loudly when missing.
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { Redis } from 'ioredis'

export type RedisMode = { run: true; bin: string } | { run: false; why: string }

/**
 * Like the browser tests: without redis-server the fleet tests skip with a loud notice (test/global-setup.ts),
 * unless DREAMLANE_REQUIRE_REDIS=1 (set by .ci/run), which turns a missing server into failures.
 */
export function redisMode(env: Record<string, string | undefined>): RedisMode {
  const bin = env.DREAMLANE_REDIS_SERVER ?? findOnPath('redis-server', env.PATH ?? '')
  if (bin) return { run: true, bin }
  if (env.DREAMLANE_REQUIRE_REDIS === '1') return { run: true, bin: 'redis-server' }
  return {
    run: false,
    why:
      'redis-server is not installed — `apt-get install -y redis-server` (or DREAMLANE_REDIS_SERVER=/path) to run ' +
      'the fleet tests; DREAMLANE_REQUIRE_REDIS=1 makes a missing server fail',
  }
}

/** The first executable `name` on `path` (or in the usual system folders), or null. */
export function findOnPath(name: string, path: string): string | null {
  for (const dir of [...path.split(delimiter), '/usr/bin', '/usr/local/bin', '/usr/sbin']) {
    if (!dir) continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not in this directory; try the next one.
    }
  }
  return null
}

const MODE = redisMode(process.env)
export const SKIP_REDIS = !MODE.run

export interface RedisServer {
  url: string
  port: number
  /** Kills the server (SIGKILL) and starts it again on the same port (empty unless `persist`). */
  restart(): Promise<void>
  /** Empties every key, so tests sharing a server never see each other's jobs (workspace ids repeat). */
  flush(): Promise<void>
  stop(): Promise<void>
}

/**
 * Starts redis-server on a free 127.0.0.1 port in a temp dir; `stop()` kills it and removes the dir. No
 * persistence unless `persist` (an fsync'd append-only file, so `restart()` keeps the queue, as a real one would).
 */
export async function startRedisServer(options: { persist?: boolean } = {}): Promise<RedisServer> {
  if (!MODE.run) throw new Error(MODE.why)
  const bin = MODE.bin
  const dir = mkdtempSync(join(tmpdir(), 'dreamlane-redis-'))
  let port = 0
  let child: ChildProcess | null = null
  // A free port can be taken between probing and binding; a few attempts make that race harmless.
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    port = await freePort()
    child = await launch(bin, port, dir, options.persist).catch(() => null)
  }
  if (!child) throw new Error(`redis-server (${bin}) did not start on 127.0.0.1 after 5 attempts`)
  let current: ChildProcess = child
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart() {
      await kill(current)
      current = await launch(bin, port, dir, options.persist)
    },
    async flush() {
      const redis = new Redis(`redis://127.0.0.1:${port}`)
      try {
        await redis.flushall()
      } finally {
        redis.disconnect()
      }
    },
    async stop() {
      await kill(current)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function launch(bin: string, port: number, dir: string, persist = false): Promise<ChildProcess> {
  const durability = persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...durability, '--dir', dir]
  const child = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not get ready in 20 s:\n${output}`)),
      20_000,
    )
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    child.on('error', fail)
    child.on('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${output}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer)
        child.removeAllListeners('exit')
        resolve(child)
      }
    })
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  })
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}
