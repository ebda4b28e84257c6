// Seeding cost must follow the window, not the history: 7 days on a 1M-message DB vs a 10k one, same window,
// on DBs dreamlane created (with its timestamp index) and on DBs as PiClaw makes them (only (chat_jid, timestamp)).
// And a year-long window of about 500k messages: its time, and how long the event loop waits meanwhile.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { resolveConfig } from '../src/config/resolve.js'
import { openMessagesDb } from '../src/db/messages.js'
import { workspacePaths } from '../src/notes/paths.js'
import { seedDailyNotes } from '../src/notes/seed.js'
import { dayWindow } from '../src/time/local-day.js'
import { buildIfStale } from './build.js'
import { ensureDb, ensurePiclawDb, NOW, ROOT, WINDOW_DAYS } from './fixtures/seed-db.js'
import type { BenchRow } from './run.js'

const RUNS = 5
const ROUNDS = 3
const YEAR_DAYS = 365
/** The drift probe's timer period: a gap longer than this is time the event loop could not run a timer. */
const PROBE_MS = 2

interface ChildReport {
  medianMs: number
  peakRssMb: number
  /** RSS after imports, before the first seed: what the runtime costs without seeding. */
  startRssMb: number
  days: number
  messages: number
}

/** Runs in a fresh process: seeds the window RUNS times into an empty workspace, reports median time and peak RSS. */
async function measureChild(dbFile: string): Promise<ChildReport> {
  const startRssMb = process.memoryUsage().rss / 1024 / 1024
  const workspace = mkdtempSync(join(tmpdir(), 'dreamlane-seed-bench-'))
  try {
    const config = resolveConfig({
      cwd: workspace,
      env: {},
      flags: { workspace, timezone: 'UTC', messagesDb: dbFile },
    })
    const paths = workspacePaths(config)
    const messages = openMessagesDb(dbFile, { readonly: true })
    const window = dayWindow(NOW, WINDOW_DAYS, 'UTC')
    const times: number[] = []
    let result = await seedDailyNotes({ paths, config, messages, window }) // warm-up: page cache, JIT
    for (let run = 0; run < RUNS; run++) {
      rmSync(paths.daily, { recursive: true, force: true })
      const started = performance.now()
      result = await seedDailyNotes({ paths, config, messages, window })
      times.push(performance.now() - started)
    }
    messages.close()
    times.sort((a, b) => a - b)
    return {
      medianMs: times[Math.floor(times.length / 2)] as number,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      startRssMb,
      days: result.days.length,
      messages: result.days.reduce((sum, day) => sum + day.messages, 0),
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}

/** Longest and 99th-percentile wait of a PROBE_MS timer while `work` runs: how long a chat turn could wait. */
async function loopWaitDuring(work: () => Promise<unknown>): Promise<{ maxMs: number; p99Ms: number }> {
  const gaps: number[] = []
  let last = performance.now()
  const probe = setInterval(() => {
    const now = performance.now()
    gaps.push(now - last - PROBE_MS)
    last = now
  }, PROBE_MS)
  try {
    await work()
  } finally {
    clearInterval(probe)
  }
  gaps.sort((a, b) => a - b)
  return { maxMs: gaps.at(-1) ?? 0, p99Ms: gaps[Math.floor(gaps.length * 0.99)] ?? 0 }
}

interface YearReport {
  seedMs: number
  readMs: number
  /** Process CPU (user + sys) of each side: on a shared machine, what the wall times would be unloaded. */
  seedCpuMs: number
  readCpuMs: number
  messages: number
  days: number
  seeding: { maxMs: number; p99Ms: number }
  idle: { maxMs: number; p99Ms: number }
}

/** Where the year child loads dreamlane from: the built code users run, or src/ through tsx. */
type Code = 'dist' | 'src'

/** The modules the year child runs, from dist/ or src/ (dist's seed threads start without tsx, as users' do). */
async function codeOf(code: Code) {
  const from = (path: string) =>
    new URL(`../${code}/${path}.${code === 'dist' ? 'js' : 'ts'}`, import.meta.url).href
  return {
    ...((await import(from('config/resolve'))) as typeof import('../src/config/resolve.js')),
    ...((await import(from('db/messages'))) as typeof import('../src/db/messages.js')),
    ...((await import(from('notes/paths'))) as typeof import('../src/notes/paths.js')),
    ...((await import(from('notes/seed'))) as typeof import('../src/notes/seed.js')),
    ...((await import(from('time/local-day'))) as typeof import('../src/time/local-day.js')),
  }
}

/** Runs in a fresh process: the bare window read, then a seed of the same 365 days, each timed; loop waits too. */
async function measureYearChild(dbFile: string, code: Code): Promise<YearReport> {
  const { resolveConfig, workspacePaths, openMessagesDb, dayWindow, seedDailyNotes } = await codeOf(code)
  const workspace = mkdtempSync(join(tmpdir(), 'dreamlane-seed-year-'))
  try {
    const flags = { workspace, timezone: 'UTC', messagesDb: dbFile }
    const config = resolveConfig({ cwd: workspace, env: {}, flags })
    const paths = workspacePaths(config)
    const messages = openMessagesDb(dbFile, { readonly: true })
    const window = dayWindow(NOW, YEAR_DAYS, 'UTC')
    // The baseline: reading the same rows and nothing else (also warms the page cache for both sides).
    const cpuMsSince = (from: NodeJS.CpuUsage): number => {
      const used = process.cpuUsage(from)
      return (used.user + used.system) / 1000
    }
    let started = performance.now()
    let cpu = process.cpuUsage()
    let count = 0
    for (const _message of messages.iterateWindow(window.start, window.end)) count++
    const readMs = performance.now() - started
    const readCpuMs = cpuMsSince(cpu)
    let seedMs = 0
    let seedCpuMs = 0
    let result: Awaited<ReturnType<typeof seedDailyNotes>> | undefined
    const seeding = await loopWaitDuring(async () => {
      started = performance.now()
      cpu = process.cpuUsage()
      result = await seedDailyNotes({ paths, config, messages, window })
      seedMs = performance.now() - started
      seedCpuMs = cpuMsSince(cpu)
    })
    const idle = await loopWaitDuring(() => new Promise((resolve) => setTimeout(resolve, seedMs)))
    messages.close()
    const days = result?.days ?? []
    const seeded = days.reduce((sum, day) => sum + day.messages, 0)
    if (seeded !== count) throw new Error(`seed bench: seeded ${seeded} of the window's ${count} messages`)
    return { seedMs, readMs, seedCpuMs, readCpuMs, messages: count, days: days.length, seeding, idle }
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}

function inChild<Report>(mode: '--child' | '--year', dbFile: string, code: Code = 'src'): Report {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), mode, dbFile, code],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
  if (child.status !== 0) throw new Error(`seed bench child failed (${child.status}):\n${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as Report
}

const measureInChild = (dbFile: string): ChildReport => inChild('--child', dbFile)

export async function run(): Promise<BenchRow[]> {
  const ours = [ensureDb(10_000), ensureDb(1_000_000)] as const
  const piclaw = [ensurePiclawDb(ours[0]), ensurePiclawDb(ours[1])] as const
  return [
    compare('seed 7-day window, DB dreamlane created', ours, '≤ 1.5'),
    compare('seed 7-day window, PiClaw-indexed DB (no dreamlane index)', piclaw, '≤ 1.2'),
    ...year(piclaw[1], 'dist'),
    ...year(piclaw[1], 'src'),
  ]
}

function year(file: string, code: Code): BenchRow[] {
  if (code === 'dist') buildIfStale('seed')
  const report = inChild<YearReport>('--year', file, code)
  const ms = (value: number): string => `${value.toFixed(1)} ms`
  const subject = `${YEAR_DAYS}-day window of a PiClaw-indexed 1M-message DB (${report.messages} messages, ${report.days} days)`
  const how =
    code === 'dist' ? 'built code (dist/)' : 'src/ under tsx (each seed thread loads tsx: ~0.3 s CPU more)'
  return [
    {
      name: `seed ${YEAR_DAYS}-day window, ${how}`,
      subject,
      baseline: `${ms(report.readMs)} (CPU ${ms(report.readCpuMs)}) reading the same rows and nothing else`,
      measured: `${ms(report.seedMs)} (CPU ${ms(report.seedCpuMs)}) seeding`,
      ratio: report.seedCpuMs / report.readCpuMs,
      target: 'seeding ≤ 2 s',
      notes: 'ratio of CPU times; wall times include whatever else the machine runs',
    },
    {
      name: `event loop wait while seeding ${YEAR_DAYS} days, ${how}`,
      subject,
      baseline: `max ${ms(report.idle.maxMs)}, p99 ${ms(report.idle.p99Ms)} idle, same process and length`,
      measured: `max ${ms(report.seeding.maxMs)}, p99 ${ms(report.seeding.p99Ms)} seeding`,
      ratio: report.seeding.maxMs / Math.max(report.idle.maxMs, 1),
      target: 'max ≤ 50 ms',
      notes: `a ${PROBE_MS} ms timer's lateness; idle lateness is what the machine's other load costs`,
    },
  ]
}

function compare(name: string, files: readonly [string, string], target: string): BenchRow {
  // Alternating rounds, best median per side: a load spike from elsewhere hits one round, not the result.
  const rounds = Array.from({ length: ROUNDS }, () => files.map(measureInChild))
  const best = (side: 0 | 1): ChildReport =>
    rounds.map((round) => round[side] as ChildReport).reduce((a, b) => (b.medianMs < a.medianMs ? b : a))
  const small = best(0)
  const large = best(1)
  if (small.messages !== large.messages)
    throw new Error('seed bench: the two DBs do not hold the same window')
  return {
    name,
    subject: `1M-message DB vs 10k-message DB (${large.messages} window messages, ${large.days} days)`,
    baseline: `${small.medianMs.toFixed(1)} ms (10k)`,
    measured: `${large.medianMs.toFixed(1)} ms (1M)`,
    ratio: large.medianMs / small.medianMs,
    target,
    notes:
      `peak RSS ${small.peakRssMb.toFixed(0)} MB (10k) vs ${large.peakRssMb.toFixed(0)} MB (1M), ` +
      `from ${small.startRssMb.toFixed(0)} / ${large.startRssMb.toFixed(0)} MB before seeding; ` +
      `best of ${ROUNDS} fresh processes per side, each the median of ${RUNS} runs`,
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [mode, dbFile] = [process.argv[2], process.argv[3] as string]
  if (mode === '--child') process.stdout.write(`${JSON.stringify(await measureChild(dbFile))}\n`)
  if (mode === '--year')
    process.stdout.write(`${JSON.stringify(await measureYearChild(dbFile, process.argv[4] as Code))}\n`)
}
