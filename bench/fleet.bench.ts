// The fleet on a real redis-server: dreams per minute with 1 vs 2 worker processes, and the queue's cost per
// job against the same dreams run one after another in-process. Skipped (with a line saying so) without Redis.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import type { Queue } from 'bullmq'
import { pino } from 'pino'
import { resolveConfig } from '../src/config/resolve.js'
import { openDreamlane } from '../src/create.js'
import { dreamJobFor } from '../src/fleet/jobs.js'
import { enqueueDream } from '../src/fleet/producer.js'
import { openDreamQueue } from '../src/fleet/queue.js'
import { initWorkspace } from '../src/notes/init-workspace.js'
import { workspacePaths } from '../src/notes/paths.js'
import { writeBusyWeek } from './fixtures/busy-week.js'
import type { BenchRow } from './run.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const WORKSPACES = 12
const MESSAGES = 600
const DAYS = 2

async function makeWorkspaces(dir: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    const config = resolveConfig({ env: {}, flags: { workspace: join(dir, id), timezone: 'UTC' } })
    const paths = workspacePaths(config)
    await initWorkspace(paths)
    writeFileSync(join(paths.dataDir, 'config.json'), '{"timezone":"UTC"}')
    writeBusyWeek({ file: paths.messagesDb, count: MESSAGES, days: DAYS, now: new Date() })
  }
}

const idsOf = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`)

/** The baseline: the same dreams, one after another, in this process (after one warm-up dream). */
async function inProcessMs(dir: string, ids: string[]): Promise<number> {
  let total = 0
  for (const [index, id] of ids.entries()) {
    const config = resolveConfig({ env: {}, flags: { workspace: join(dir, id) } })
    const dreamlane = openDreamlane({ config, logger: pino({ level: 'silent' }) })
    const started = performance.now()
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: DAYS })
    await dreamlane.close()
    if (index > 0) total += performance.now() - started
  }
  return total
}

async function untilDone(queue: Queue, jobIds: string[]): Promise<void> {
  for (;;) {
    const states = await Promise.all(jobIds.map(async (id) => (await queue.getJob(id))?.getState()))
    if (states.every((state) => state === 'completed' || state === 'failed')) return
    await sleep(25)
  }
}

function enqueueAll(queue: Queue, ids: string[]): Promise<string[]> {
  const now = new Date()
  return Promise.all(
    ids.map(async (id) => {
      const job = dreamJobFor({ workspaceId: id, mode: 'manual', days: DAYS, now, timeZone: 'UTC' })
      return (await enqueueDream(queue, { ...job, chatJid: 'web:main' })).jobId
    }),
  )
}

/** Dreams the fleet's workspaces on `workers` worker processes; the clock runs from enqueue to the last job. */
async function fleetMs(dir: string, redisUrl: string, ids: string[], workers: number): Promise<number> {
  const warm = idsOf('warm', workers)
  await makeWorkspaces(dir, warm)
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ globs: ['*'], redis: redisUrl }))
  const children = Array.from({ length: workers }, () =>
    spawn(process.execPath, [join(ROOT, 'bin/dreamlane.js'), 'worker', '--fleet', join(dir, 'fleet.json')], {
      stdio: 'ignore',
      env: { ...process.env, DREAMLANE_LOG_LEVEL: 'silent' },
    }),
  )
  const queue = await openDreamQueue(redisUrl)
  try {
    // One warm-up dream per worker loads what a first dream loads; they are not timed.
    await untilDone(queue, await enqueueAll(queue, warm))
    const started = performance.now()
    await untilDone(queue, await enqueueAll(queue, ids))
    return performance.now() - started
  } finally {
    await queue.close()
    for (const child of children) child.kill('SIGTERM')
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))))
  }
}

export async function run(): Promise<BenchRow[]> {
  const redisBin = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((bin) => {
    try {
      execFileSync(bin, ['--version'], { stdio: 'ignore' })
      return true
    } catch {
      return false
    }
  })
  if (!redisBin) {
    console.log('  fleet: skipped — redis-server is not installed (apt-get install redis-server)')
    return []
  }
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-if-stale.mjs')], { stdio: 'ignore' })
  const root = mkdtempSync(join(tmpdir(), 'dreamlane-fleet-bench-'))
  const port = await freePort()
  const redis = spawn(
    redisBin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      cwd: root,
      stdio: 'ignore',
    },
  )
  const redisUrl = `redis://127.0.0.1:${port}`
  try {
    await waitForRedis(redisUrl)
    const ids = idsOf('ws', WORKSPACES)
    for (const name of ['inproc', 'one', 'two'])
      await makeWorkspaces(join(root, name), ['warm-inproc', ...ids])
    for (const name of ['one', 'two']) rmSync(join(root, name, 'warm-inproc'), { recursive: true })
    const inProcess = await inProcessMs(join(root, 'inproc'), ['warm-inproc', ...ids])
    const one = await fleetMs(join(root, 'one'), redisUrl, ids, 1)
    const two = await fleetMs(join(root, 'two'), redisUrl, ids, 2)
    const perMinute = (ms: number) => (WORKSPACES / ms) * 60_000
    const subject = `${WORKSPACES} workspaces, ${MESSAGES} messages over ${DAYS} days each, offline engine, real redis-server`
    return [
      {
        name: 'fleet throughput: 2 workers vs 1',
        subject,
        baseline: `${perMinute(one).toFixed(1)} dreams/min on 1 worker`,
        measured: `${perMinute(two).toFixed(1)} dreams/min on 2 workers`,
        ratio: one / two,
        target: '≈ 1.8× on 2 free cores',
      },
      {
        name: 'fleet: time per dream through the queue (1 worker) vs in-process',
        subject,
        baseline: `${(inProcess / WORKSPACES).toFixed(0)} ms in-process`,
        measured: `${(one / WORKSPACES).toFixed(0)} ms through Redis`,
        ratio: one / inProcess,
        target: '≤ 1.10',
      },
    ]
  } finally {
    redis.kill('SIGKILL')
    rmSync(root, { recursive: true, force: true })
  }
}

async function waitForRedis(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const queue = await openDreamQueue(url)
      await queue.close()
      return
    } catch (error) {
      if (attempt > 50) throw error
      await sleep(100)
    }
  }
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
