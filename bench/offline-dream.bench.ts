// The real offline engine on a busy week: how long a 7-day dream over 40k messages takes in one process, how
// long the event loop is blocked meanwhile, and what that means for a user: GET /api/status on the real HTTP
// server of the same process, asked again and again while the dream runs, against the same requests idle.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { pino } from 'pino'
import { resolveConfig } from '../src/config/resolve.js'
import { openServerHost } from '../src/server/host.js'
import { startServer } from '../src/server/start.js'
import { initWorkspace } from '../src/notes/init-workspace.js'
import { workspacePaths } from '../src/notes/paths.js'
import { writeBusyWeek } from './fixtures/busy-week.js'
import type { BenchRow } from './run.js'
import { percentile } from './stats.js'

const MESSAGES = 40_000
const DAYS = 7

/** Event-loop delay (max and p99, ms) while `work` runs. */
async function delayDuring(
  work: () => Promise<unknown>,
): Promise<{ maxMs: number; p99Ms: number; ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  const started = performance.now()
  await work()
  const ms = performance.now() - started
  histogram.disable()
  return { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, ms }
}

/** Latency (ms) of GET `url`, asked back to back, until `until` settles (or `count` requests when absent). */
async function pollLatency(url: string, until: Promise<unknown> | null, count = 40): Promise<number[]> {
  let isDone = false
  void until?.finally(() => (isDone = true))
  const latencies: number[] = []
  while (until ? !isDone : latencies.length < count) {
    const started = performance.now()
    const response = await fetch(url)
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`GET ${url}: ${response.status}`)
    latencies.push(performance.now() - started)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return latencies
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dreamlane-offline-'))
  try {
    const config = resolveConfig({ cwd: dir, env: {}, flags: { workspace: dir, timezone: 'UTC' } })
    const paths = workspacePaths(config)
    await initWorkspace(paths)
    writeBusyWeek({ file: paths.messagesDb, count: MESSAGES, days: DAYS, now: new Date() })
    const host = openServerHost({
      config,
      env: {},
      logger: pino({ level: 'silent' }),
    })
    const server = await startServer(host, { port: 0 })
    const status = `${server.url}api/status`
    try {
      const idle = await delayDuring(() => new Promise((resolve) => setTimeout(resolve, 1000)))
      const idleStatus = await pollLatency(status, null)
      let statusDuring: number[] = []
      const dream = await delayDuring(async () => {
        const running = host.dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: DAYS })
        ;[statusDuring] = await Promise.all([pollLatency(status, running), running])
      })
      const subject = `real offline engine (its worker thread, as selected with no key), ${DAYS}-day dream over ${MESSAGES.toLocaleString('en')} messages`
      const worst = Math.max(...statusDuring)
      return [
        {
          name: 'offline dream: event loop blocked (max)',
          subject,
          baseline: `${idle.maxMs.toFixed(1)} ms idle`,
          measured: `${dream.maxMs.toFixed(1)} ms dreaming (p99 ${dream.p99Ms.toFixed(1)} ms)`,
          ratio: dream.maxMs / Math.max(idle.maxMs, 1),
          target: 'max ≤ 100 ms',
          notes: `whole dream took ${(dream.ms / 1000).toFixed(1)} s in-process`,
        },
        {
          name: 'offline dream: GET /api/status latency during the dream vs idle',
          subject: `${subject}, the real HTTP server in the same process, ${statusDuring.length} requests`,
          baseline: `p50 ${percentile(idleStatus, 50).toFixed(1)} / max ${Math.max(...idleStatus).toFixed(1)} ms idle`,
          measured: `p50 ${percentile(statusDuring, 50).toFixed(1)} / p95 ${percentile(statusDuring, 95).toFixed(1)} / max ${worst.toFixed(1)} ms dreaming`,
          ratio: worst / Math.max(Math.max(...idleStatus), 1),
          target: 'every request answered within 100 ms',
        },
      ]
    } finally {
      await server.close()
      await host.dreamlane.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
