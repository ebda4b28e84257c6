// The real offline engine on a busy week: how long a 7-day dream over 40k messages takes in one process, and
// how long the event loop is blocked meanwhile — what a `/api/status` request or a chat turn would wait for.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { pino } from 'pino'
import { resolveConfig } from '../src/config/resolve.js'
import { openDreamlane } from '../src/create.js'
import { createOfflineProvider } from '../src/model/offline/engine.js'
import { initWorkspace } from '../src/notes/init-workspace.js'
import { workspacePaths } from '../src/notes/paths.js'
import { writeBusyWeek } from './fixtures/busy-week.js'
import type { BenchRow } from './run.js'

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

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dreamlane-offline-'))
  try {
    const config = resolveConfig({ cwd: dir, env: {}, flags: { workspace: dir, timezone: 'UTC' } })
    const paths = workspacePaths(config)
    await initWorkspace(paths)
    writeBusyWeek({ file: paths.messagesDb, count: MESSAGES, days: DAYS, now: new Date() })
    const dreamlane = openDreamlane({
      config,
      provider: createOfflineProvider(),
      logger: pino({ level: 'silent' }),
    })
    try {
      const idle = await delayDuring(() => new Promise((resolve) => setTimeout(resolve, 1000)))
      const dream = await delayDuring(() =>
        dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: DAYS }),
      )
      const subject = `real offline engine, ${DAYS}-day dream over ${MESSAGES.toLocaleString('en')} messages`
      return [
        {
          name: 'offline dream: event loop blocked (max)',
          subject,
          baseline: `${idle.maxMs.toFixed(1)} ms idle`,
          measured: `${dream.maxMs.toFixed(1)} ms dreaming (p99 ${dream.p99Ms.toFixed(1)} ms)`,
          ratio: dream.maxMs / Math.max(idle.maxMs, 1),
          target: 'max ≤ 100 ms, so /api/status answers within 100 ms',
          notes: `whole dream took ${(dream.ms / 1000).toFixed(1)} s in-process`,
        },
      ]
    } finally {
      await dreamlane.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
