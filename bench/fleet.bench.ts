// The fleet on a real redis-server: dreams per minute with 1 vs 2 worker processes, and the queue's cost per
// job against the same dreams run one after another in-process. Skipped (with a line saying so) without Redis.
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, hostname, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import type { Job, Queue } from 'bullmq'
import Database from 'better-sqlite3'
import { Redis } from 'ioredis'
import { pino } from 'pino'
import { resolveConfig } from '../src/config/resolve.js'
import { openDreamlane } from '../src/create.js'
import { dreamJobFor } from '../src/fleet/jobs.js'
import { enqueueDream } from '../src/fleet/producer.js'
import { openDreamQueue } from '../src/fleet/queue.js'
import { initWorkspace } from '../src/notes/init-workspace.js'
import { workspacePaths } from '../src/notes/paths.js'
import { SKIP_REDIS, startRedisServer } from '../test/helpers/redis-process.js'
import { writeBusyWeek } from './fixtures/busy-week.js'
import {
  machineCpu,
  machineCpuSince,
  mainThreadSched,
  percent,
  processCpuMs,
  schedSince,
  type ThreadSched,
  seconds,
  type MachineCpu,
} from './fixtures/proc-cpu.js'
import { controlRow, runPlainDreamsTogether, type PlainDreams } from './fixtures/cpu-control.js'
import type { BenchRow } from './run.js'
import { median } from './stats.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/**
 * Timed dreams per worker: one worker dreams this many workspaces, two workers twice as many. A process's dreams
 * keep getting cheaper over its first few dozen (its code compiled further, its heap grown), so two workers
 * sharing one worker's jobs would each be timed on an earlier, dearer stretch of that curve (~1.09× CPU per
 * dream by itself); with the same count per worker both are timed on the same stretch, as long-lived workers
 * in a real fleet would be compared. Enough that the last job's tail stays small (one worker idle while the
 * other finishes: up to 4% of the run with 12 each).
 */
const DREAMS_PER_WORKER = 32
const MESSAGES = 600
const DAYS = 2
/**
 * Dreams each worker (and each in-process baseline) runs before the clock starts, on workspaces of their own: the
 * first loads the engine (~1.8 s of CPU), the next few still cost 1.5–2× a later one while code is compiled.
 */
const WARM_DREAMS = 6
/** Workspaces the warm-up dreams: a fresh one per warm-up job for two workers, with a few to spare. */
const WARM_POOL = 2 * WARM_DREAMS + 4

async function makeWorkspaces(dir: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    const config = resolveConfig({ env: {}, flags: { workspace: join(dir, id), timezone: 'UTC' } })
    const paths = workspacePaths(config)
    await initWorkspace(paths)
    writeFileSync(join(paths.dataDir, 'config.json'), '{"timezone":"UTC"}')
    writeBusyWeek({ file: paths.messagesDb, count: MESSAGES, days: DAYS, now: new Date() })
    // A fleet's workspaces have been opened before (their state.db made and migrated, six fsyncs on the worker's
    // main thread): the nightly dream the bench times is not a workspace's first.
    await openDreamlane({ config, logger: pino({ level: 'silent' }) }).shutdown()
  }
}

const idsOf = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`)

const load = () => loadavg()[0]?.toFixed(1) ?? '?'

/** What one timed stretch cost: wall time, the machine's load, and (for the fleet) each worker's share. */
export interface Measured {
  ms: number
  loadBefore: string
  loadAfter: string
  /** Every core's busy and idle time over the stretch: how much of the machine others took, how much lay idle. */
  machine: MachineCpu | null
  /** Timed dreams. */
  dreams: number
  /** Wall time per dream outside its run record (see msOutsideRuns). */
  msOutsideRuns: number
  /** The no-queue baseline's CPU over the stretch, all threads (0 for the fleet: see workers). */
  cpuMs: number
  /** The baseline's main thread alone (null for the fleet: see workers). */
  mainThreadMs: number | null
  workers: {
    pid: number
    jobs: number
    busyMs: number
    cpuMs: number | null
    /** The worker's main thread alone; the rest of its CPU is its engine thread's and V8's helper threads'. */
    mainThread: ThreadSched | null
    /** From one job's finish to the worker's next job's start (BullMQ's ms timestamps): the queue's hand-off. */
    handOffMs: { mean: number; max: number } | null
  }[]
  redisCpuMs: number
}

/** The workspaces of a worker's (or a baseline's) warm-up, none of them timed. */
export const warmIds = (count: number): string[] => idsOf('warm', count)

/**
 * Wall time per dream outside its run record (from the record's creation to its close): opening, recovering and
 * shutting down the workspace, and for a worker the queue's own steps (the fleet lock taken and released, BullMQ's
 * hand-off to the next job). The stretch's wall time mixes these with the dreams' own swings on a shared machine.
 */
function msOutsideRuns(dir: string, ids: readonly string[], stretchMs: number): number {
  let inRunsMs = 0
  for (const id of ids) {
    const { stateDb } = workspacePaths(resolveConfig({ env: {}, flags: { workspace: join(dir, id) } }))
    const db = new Database(stateDb, { readonly: true })
    try {
      const run = db
        .prepare(
          "SELECT created_at, finished_at FROM runs WHERE mode = 'manual' ORDER BY created_at DESC LIMIT 1",
        )
        .get() as { created_at: string; finished_at: string | null } | undefined
      if (!run?.finished_at) throw new Error(`${id} has no finished manual run`)
      inRunsMs += Date.parse(run.finished_at) - Date.parse(run.created_at)
    } finally {
      db.close()
    }
  }
  return (stretchMs - inRunsMs) / ids.length
}

/**
 * The baseline: the same dreams with no queue, in fresh plain Node processes (fixtures/plain-dreams.mjs), one per
 * dir, each warming up on WARM_DREAMS workspaces of its own, then dreaming its list of `timedIds`, all started on
 * one cue. One process is the queue row's baseline, so that row measures the queue alone; two, on what two workers
 * dream, show how far the machine itself lets two streams of these dreams scale. Like a worker each runs the
 * compiled dist/ code, is timed over each workspace's whole lifecycle (open, recover, dream, shut down; configs
 * resolved before, as a worker's registry is) and reaches its timed dreams after the same number of warm-ups.
 * Until 2026-11-26 the baseline ran in the bench's own process: under tsx, each workspace opened before its clock
 * started and not recovered, after whatever that process had dreamed before. A process's dreams keep getting
 * cheaper over its first hundred or so, so repeated in one process the baseline's later stretches cost 148–158 ms
 * of CPU a dream against 171 ms in its first (load ~2), while every worker was new.
 */
export async function plainProcesses(
  dirs: readonly string[],
  timedIds: readonly (readonly string[])[],
): Promise<Measured> {
  let loadBefore = load()
  let machineBefore: MachineCpu | null = null
  const plain = await runPlainDreamsTogether(
    dirs,
    { warm: warmIds(WARM_DREAMS), timed: timedIds, days: DAYS },
    () => {
      loadBefore = load()
      machineBefore = machineCpu()
    },
  )
  const sum = (pick: (result: PlainDreams) => number) =>
    plain.reduce((total, result) => total + pick(result), 0)
  const ms = Math.max(...plain.map((result) => result.ms))
  return {
    ms,
    loadBefore,
    loadAfter: load(),
    machine: machineCpuSince(machineBefore),
    dreams: sum((result) => result.dreams),
    msOutsideRuns:
      dirs.reduce(
        (total, dir, index) => total + msOutsideRuns(dir, timedIds[index] ?? [], plain[index]?.ms ?? ms),
        0,
      ) / dirs.length,
    cpuMs: sum((result) => result.cpuMs),
    mainThreadMs: sum((result) => result.mainThreadMs),
    workers: [],
    redisCpuMs: 0,
  }
}

/** The gaps between a worker's jobs, in the order it ran them. */
function handOffs(jobs: readonly (Job | undefined)[]): { mean: number; max: number } | null {
  const spans = jobs
    .map((job) => [job?.processedOn ?? 0, job?.finishedOn ?? 0] as const)
    .sort(([a], [b]) => a - b)
  const gaps = spans.slice(1).map(([start], i) => start - (spans[i]?.[1] ?? start))
  if (!gaps.length) return null
  return { mean: gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length, max: Math.max(...gaps) }
}

/** Waits (polling one cheap command) until `count` more jobs than `base` have finished. */
async function untilFinished(queue: Queue, base: number, count: number): Promise<void> {
  const deadline = Date.now() + 15 * 60_000
  while ((await finishedCount(queue)) < base + count) {
    if (Date.now() > deadline) throw new Error(`${count} dreams did not finish in 15 minutes`)
    // The end is read from the jobs' finishedOn, so polling more often would only take CPU from the workers.
    await sleep(100)
  }
}

/** Waits until every job of `jobIds` has finished (re-enqueued warm-ups replace finished jobs, so no count). */
async function untilJobsFinished(queue: Queue, jobIds: string[]): Promise<void> {
  let pending = jobIds
  while (pending.length) {
    const states = await Promise.all(pending.map((id) => queue.getJobState(id)))
    pending = pending.filter((_id, i) => states[i] !== 'completed' && states[i] !== 'failed')
    if (pending.length) await sleep(50)
  }
}

async function finishedCount(queue: Queue): Promise<number> {
  const counts = await queue.getJobCounts('completed', 'failed')
  return (counts.completed ?? 0) + (counts.failed ?? 0)
}

/** Enqueues a manual dream per workspace (a finished manual job is replaced, so warm-ups can repeat). */
function enqueueAll(queue: Queue, ids: string[]): Promise<string[]> {
  const now = new Date()
  return Promise.all(
    ids.map(async (id) => {
      const job = dreamJobFor({ workspaceId: id, mode: 'manual', days: DAYS, now, timeZone: 'UTC' })
      return (await enqueueDream(queue, { ...job, chatJid: 'web:main' })).jobId
    }),
  )
}

/** Redis's own CPU time so far (it shares the cores with the workers). */
async function redisCpuMs(redisUrl: string): Promise<number> {
  const client = new Redis(redisUrl)
  try {
    const info = await client.info('cpu')
    const seconds = (key: string) => Number(new RegExp(`${key}:([\\d.]+)`).exec(info)?.[1] ?? 0)
    return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000
  } finally {
    client.disconnect()
  }
}

/** How the bench starts a worker process: node's flags and any extra environment. */
export interface WorkerSetup {
  label: string
  nodeArgs: readonly string[]
  /** `dreamlane worker`'s own options (e.g. `--concurrency 2`). */
  workerArgs?: readonly string[]
  env: Record<string, string>
}

/** Workers as `dreamlane worker` starts them by default. */
export const DEFAULT_SETUP: WorkerSetup = { label: 'default', nodeArgs: [], env: {} }

/** Debian's eatmydata package: preloaded, it turns fsync and fdatasync into no-ops (and O_SYNC off). */
const EATMYDATA = ['/usr/lib/x86_64-linux-gnu/libeatmydata.so', '/usr/lib/libeatmydata.so'].find((file) =>
  existsSync(file),
)

/**
 * The control for fsync's share: workers whose every fsync returns at once (never for real use: nothing they
 * write would survive a crash of the machine). What two workers gain over one here that they do not with fsync
 * is what the fsync sleeps cost. Null without the eatmydata package (`apt-get install eatmydata`).
 */
export const NO_FSYNC_SETUP: WorkerSetup | null = EATMYDATA
  ? { label: 'no fsync (eatmydata)', nodeArgs: [], env: { LD_PRELOAD: EATMYDATA } }
  : null

/**
 * Dreams the fleet's workspaces on `workers` worker processes started as `setup` says. Every worker has dreamed
 * WARM_DREAMS times before the clock starts; the clock runs from the first enqueue to the last job's finish as
 * its worker recorded it.
 */
export async function fleet(
  dir: string,
  redisUrl: string,
  ids: string[],
  workers: number,
  setup: WorkerSetup = DEFAULT_SETUP,
): Promise<Measured> {
  // The previous run's jobs share these ids: an empty Redis, so the timed jobs are new and counted as such.
  const client = new Redis(redisUrl)
  await client.flushall()
  client.disconnect()
  const warmPool = warmIds(WARM_POOL)
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ globs: ['*'], redis: redisUrl }))
  const args = [
    ...setup.nodeArgs,
    join(ROOT, 'bin/dreamlane.js'),
    'worker',
    '--fleet',
    join(dir, 'fleet.json'),
    ...(setup.workerArgs ?? []),
  ]
  const env = { ...process.env, DREAMLANE_LOG_LEVEL: 'silent', ...setup.env }
  const children = Array.from({ length: workers }, () =>
    spawn(process.execPath, args, { stdio: 'ignore', env }),
  )
  const names = new Map(children.map((child) => [`${hostname()}:${child.pid}`, child.pid as number]))
  const queue = await openDreamQueue(redisUrl)
  try {
    const warmed = new Map<string, number>()
    const isWarm = () =>
      warmed.size === workers && [...warmed.values()].every((dreams) => dreams >= WARM_DREAMS)
    for (let round = 0; !isWarm(); round++) {
      if (round === 10 * WARM_DREAMS)
        throw new Error(`the ${workers} workers took ${[...warmed.values()].join(', ')} warm-up jobs`)
      const warm = Array.from(
        { length: workers },
        (_, i) => warmPool[(round * workers + i) % WARM_POOL] as string,
      )
      const jobIds = await enqueueAll(queue, warm)
      await untilJobsFinished(queue, jobIds)
      for (const id of jobIds) {
        const by = (await queue.getJob(id))?.processedBy
        if (by) warmed.set(by, (warmed.get(by) ?? 0) + 1)
      }
    }
    const loadBefore = load()
    const machineBefore = machineCpu()
    const cpuBefore = children.map((child) => processCpuMs(child.pid))
    const mainBefore = children.map((child) => mainThreadSched(child.pid))
    const redisBefore = await redisCpuMs(redisUrl)
    const base = await finishedCount(queue)
    const started = Date.now()
    const jobIds = await enqueueAll(queue, ids)
    await untilFinished(queue, base, jobIds.length)
    const cpuAfter = children.map((child) => processCpuMs(child.pid))
    const mainAfter = children.map((child) => mainThreadSched(child.pid))
    const machine = machineCpuSince(machineBefore)
    const redisCpu = (await redisCpuMs(redisUrl)) - redisBefore
    const jobs = await Promise.all(jobIds.map((id) => queue.getJob(id)))
    const failed = jobs.filter((job) => job?.failedReason)
    if (failed.length) throw new Error(`${failed.length} dream(s) failed: ${failed[0]?.failedReason}`)
    const ms = Math.max(...jobs.map((job) => job?.finishedOn ?? 0)) - started
    const used = (before: number | null | undefined, after: number | null | undefined) =>
      before == null || after == null ? null : after - before
    const perWorker = children.map((child, index) => {
      const mine = jobs.filter((job) => job?.processedBy && names.get(job.processedBy) === child.pid)
      return {
        pid: child.pid as number,
        jobs: mine.length,
        busyMs: mine.reduce((sum, job) => sum + ((job?.finishedOn ?? 0) - (job?.processedOn ?? 0)), 0),
        cpuMs: used(cpuBefore[index], cpuAfter[index]),
        mainThread: schedSince(mainBefore[index], mainAfter[index]),
        handOffMs: handOffs(mine),
      }
    })
    return {
      ms,
      loadBefore,
      loadAfter: load(),
      machine,
      dreams: ids.length,
      msOutsideRuns: msOutsideRuns(dir, ids, ms),
      cpuMs: 0,
      mainThreadMs: null,
      workers: perWorker,
      redisCpuMs: redisCpu,
    }
  } finally {
    await queue.close()
    for (const child of children) child.kill('SIGTERM')
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))))
  }
}

/**
 * "load 11.0→10.6; worker 1234: 24 jobs, busy 22.7 s (95% of the run), CPU 5.9 s (26% of busy; main thread 1.6 s,
 * waited 3.2 s for a core); hand-off between jobs 0.6 ms mean, 3 ms max". Busy near 100% of the run and a
 * hand-off of a millisecond mean nothing held a worker back between jobs; CPU well
 * under busy means the dreams waited for a core (the main thread's wait says how long it was ready but had none)
 * or the disk, so the machine, not the fleet, set the pace. The machine's line says
 * who had the cores: "machine: dreams 78%, other processes 20%, idle 2% of 2 cores" — idle cores while the
 * dreams ran would mean waits in the fleet; other processes' share is what a quiet machine would add.
 */
export function describe(measured: Measured): string {
  const workers = measured.workers.map(
    (w) =>
      `worker ${w.pid}: ${w.jobs} jobs, busy ${seconds(w.busyMs)} (${percent(w.busyMs, measured.ms)} of the run), ` +
      `CPU ${seconds(w.cpuMs)} (${percent(w.cpuMs, w.busyMs)} of busy; main thread ${seconds(w.mainThread?.runMs ?? null)}, ` +
      `waited ${seconds(w.mainThread?.waitMs ?? null)} for a core); hand-off between jobs ${
        w.handOffMs ? `${w.handOffMs.mean.toFixed(1)} ms mean, ${w.handOffMs.max} ms max` : '?'
      }`,
  )
  const own = measured.workers.length
    ? []
    : [
        `CPU ${seconds(measured.cpuMs)} (${percent(measured.cpuMs, measured.ms)} of ${seconds(measured.ms)}; ` +
          `main thread ${seconds(measured.mainThreadMs)})`,
      ]
  const redis = measured.workers.length ? [`Redis CPU ${seconds(measured.redisCpuMs)}`] : []
  return [
    `load ${measured.loadBefore}→${measured.loadAfter}`,
    ...own,
    ...workers,
    ...redis,
    describeMachine(measured),
  ].join('; ')
}

/** The machine's cores over the stretch, shared out: the dreams (workers and Redis, or this process), the rest, idle. */
function describeMachine(measured: Measured): string {
  const { machine } = measured
  if (!machine) return 'machine CPU unknown'
  const all = machine.busyMs + machine.idleMs
  const share = (ms: number) => `${Math.round((Math.max(0, ms) / all) * 100)}%`
  return (
    `machine: dreams ${share(dreamsCpuMs(measured))}, other processes ${share(machine.busyMs - dreamsCpuMs(measured))}, ` +
    `idle ${share(machine.idleMs)} of ${cpus().length} cores`
  )
}

/** CPU the dreams took: the workers' and Redis's, or the no-queue baseline's. */
export function dreamsCpuMs(measured: Measured): number {
  return measured.workers.length
    ? measured.workers.reduce((sum, w) => sum + (w.cpuMs ?? NaN), 0) + measured.redisCpuMs
    : measured.cpuMs
}

/**
 * One round of stretches, run back to back: the no-queue baseline and one worker on the same dreams, and two
 * workers on twice as many. Each row compares stretches of one round, never of two.
 */
interface Round {
  plain: Measured
  one: Measured
  two: Measured
  /** Two plain processes started together on what the two workers dream: the same scaling with no queue. */
  plainTwo: Measured
}

/** The one-worker and no-queue stretches of a round: the queue row's pair. */
type QueuePair = Pick<Round, 'one' | 'plain'>

/**
 * Rounds behind the fleet's two rows; each row's ratio is the median round's. On this 2-vCPU VM a stretch's CPU
 * per dream swings by ±15% from one to the next even with nothing else running (203–289 ms on a quiet machine,
 * 2026-11-26), and one worker's dreams per minute by 265–407 between runs: far more than the queue costs or the
 * second worker's share of the cores, so one stretch per side cannot tell; five rounds keep the median within a
 * few percent.
 */
const ROUNDS = 5

/**
 * "wall 1.03× (201 vs 195 ms a dream; outside the runs 13.2 vs 10.8 ms), CPU 1.02× (209 vs 205 ms: worker + Redis
 * vs the plain process), load 1.2→1.4". CPU time, which a loaded machine disturbs far less than wall time, shows
 * what the queue costs the worker's cores; the time outside the runs what it adds to each job's wall time.
 */
function describePair({ one, plain }: QueuePair): string {
  const perDream = (measured: Measured, ms: number) => ms / measured.dreams
  const [wallOne, wallPlain] = [perDream(one, one.ms), perDream(plain, plain.ms)]
  const [cpuOne, cpuPlain] = [perDream(one, dreamsCpuMs(one)), perDream(plain, plain.cpuMs)]
  return (
    `wall ${(wallOne / wallPlain).toFixed(3)}× (${wallOne.toFixed(0)} vs ${wallPlain.toFixed(0)} ms a dream; ` +
    `outside the runs ${one.msOutsideRuns.toFixed(1)} vs ${plain.msOutsideRuns.toFixed(1)} ms), ` +
    `CPU ${(cpuOne / cpuPlain).toFixed(3)}× (${cpuOne.toFixed(0)} vs ${cpuPlain.toFixed(0)} ms: worker + Redis vs the plain process), ` +
    `load ${plain.loadBefore}→${plain.loadAfter} and ${one.loadBefore}→${one.loadAfter}`
  )
}

/** The queue's cost per job: one worker vs a plain process dreaming the same workspaces, pair by pair. */
function queueRow(pairs: readonly QueuePair[], subject: string): BenchRow {
  const wall = (measured: Measured) => measured.ms / measured.dreams
  const ratios = pairs.map(({ one, plain }) => wall(one) / wall(plain))
  const outside = (side: (pair: QueuePair) => Measured) =>
    median(pairs.map((pair) => side(pair).msOutsideRuns))
  const cpuRatios = pairs.map(
    ({ one, plain }) => dreamsCpuMs(one) / one.dreams / (plain.cpuMs / plain.dreams),
  )
  return {
    name: 'fleet: time per dream through the queue (1 worker) vs the same dreams in a plain process',
    subject,
    baseline: `${median(pairs.map(({ plain }) => wall(plain))).toFixed(0)} ms with no queue (median)`,
    measured: `${median(pairs.map(({ one }) => wall(one))).toFixed(0)} ms through Redis (median)`,
    ratio: median(ratios),
    target: '≤ 1.10 (median of the pairs)',
    notes: [
      `CPU per dream through the queue vs not: median ${median(cpuRatios).toFixed(3)}×; wall time per job outside ` +
        `its run: median ${outside((pair) => pair.one).toFixed(1)} vs ${outside((pair) => pair.plain).toFixed(1)} ms`,
      ...pairs.map((pair, index) => `pair ${index + 1}: ${describePair(pair)}`),
      `last plain process: ${describe(pairs.at(-1)?.plain as Measured)}`,
    ].join('\n    '),
  }
}

const perMinute = (measured: Measured) => (measured.dreams / measured.ms) * 60_000

/**
 * "1.78× (612 vs 344 dreams/min, load 1.1→1.3)": a round's two workers against its one, in dreams per minute.
 * The CPU per dream beside it says whether the second worker made each dream dearer (the machine's caches and
 * memory bandwidth, shared) or only had to wait for a core.
 */
function describeRound(round: Round): string {
  const { one, two, plain, plainTwo } = round
  return (
    `${fleetRatio(round).toFixed(2)}× (${perMinute(two).toFixed(0)} vs ${perMinute(one).toFixed(0)} ` +
    `dreams/min, load ${one.loadBefore}→${two.loadAfter}); ${cpuPerDreamTwoVsOne(one, two)}; no queue ` +
    `${noQueueRatio(round).toFixed(2)}× (${perMinute(plainTwo).toFixed(0)} vs ${perMinute(plain).toFixed(0)} dreams/min)`
  )
}

const fleetRatio = ({ one, two }: Round) => perMinute(two) / perMinute(one)
const noQueueRatio = ({ plain, plainTwo }: Round) => perMinute(plainTwo) / perMinute(plain)

/** Throughput, 2 workers vs 1, round by round: the median round's ratio. */
function throughputRow(rounds: readonly Round[], subject: string): BenchRow {
  const middle = rounds.toSorted((a, b) => fleetRatio(a) - fleetRatio(b))[
    Math.floor(rounds.length / 2)
  ] as Round
  return {
    name: 'fleet throughput: 2 workers vs 1',
    subject,
    baseline: `${median(rounds.map(({ one }) => perMinute(one))).toFixed(1)} dreams/min on 1 worker (median)`,
    measured: `${median(rounds.map(({ two }) => perMinute(two))).toFixed(1)} dreams/min on 2 workers (median)`,
    ratio: median(rounds.map(fleetRatio)),
    target: '≈ 1.8× on 2 free cores (median of the rounds)',
    notes: [
      `with no queue, 2 plain processes vs 1 on the same dreams: median ${median(rounds.map(noQueueRatio)).toFixed(2)}×; ` +
        `the fleet's ratio over it, round by round: median ${median(rounds.map((round) => fleetRatio(round) / noQueueRatio(round))).toFixed(2)}`,
      ...rounds.map((round, index) => `round ${index + 1}: ${describeRound(round)}`),
      `median round, 1 worker: ${describe(middle.one)}`,
      `median round, 2 workers: ${describe(middle.two)}`,
      `median round, 2 plain processes: ${describe(middle.plainTwo)}`,
    ].join('\n    '),
  }
}

/** CPU per dream of the rounds' no-queue stretches, two processes at once vs one: the median round's ratio. */
function noQueueCpuRow(rounds: readonly Round[], subject: string): BenchRow {
  const perDream = (measured: Measured) => measured.cpuMs / measured.dreams
  return {
    name: 'control (no queue): CPU per in-process dream, 2 processes at once vs 1',
    subject,
    baseline: `${median(rounds.map(({ plain }) => perDream(plain))).toFixed(0)} ms per dream alone (median)`,
    measured: `${median(rounds.map(({ plainTwo }) => perDream(plainTwo))).toFixed(0)} ms per dream two at once (median)`,
    ratio: median(rounds.map(({ plain, plainTwo }) => perDream(plainTwo) / perDream(plain))),
    target: 'the fleet row’s CPU per dream, 2 workers vs 1, with no queue (median of the rounds)',
  }
}

/** A temp dir holding every workspace the bench dreams, made once; each stretch dreams a fresh copy. */
export interface FleetBench {
  ids: string[]
  redisUrl: string
  /** A fresh copy of the workspaces for one stretch. */
  copy(name: string): string
  close(): Promise<void>
}

export async function openFleetBench(): Promise<FleetBench> {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-if-stale.mjs')], { stdio: 'ignore' })
  const root = mkdtempSync(join(tmpdir(), 'dreamlane-fleet-bench-'))
  const ids = idsOf('ws', 2 * DREAMS_PER_WORKER)
  const template = join(root, 'template')
  await makeWorkspaces(template, [...warmIds(WARM_POOL), ...ids])
  const redis = await startRedisServer()
  return {
    ids,
    redisUrl: redis.url,
    copy(name) {
      const dir = join(root, name)
      cpSync(template, dir, { recursive: true })
      return dir
    },
    async close() {
      await redis.stop()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/** CPU per dream, 2 workers vs 1: a rise here that the control shows too is the machine's, not the fleet's. */
function cpuPerDreamTwoVsOne(one: Measured, two: Measured): string {
  const [perOne, perTwo] = [one, two].map((measured) => dreamsCpuMs(measured) / measured.dreams) as [
    number,
    number,
  ]
  return `CPU per dream: ${perTwo.toFixed(0)} ms on 2 workers vs ${perOne.toFixed(0)} ms on 1 → ${(perTwo / perOne).toFixed(2)}×`
}

export async function run(): Promise<BenchRow[]> {
  if (SKIP_REDIS) {
    console.log('  fleet: skipped — redis-server is not installed (apt-get install redis-server)')
    return []
  }
  const controls = [await controlRow('loop'), await controlRow('nlp')]
  const bench = await openFleetBench()
  try {
    const { ids, redisUrl } = bench
    // One worker (and each single-process run) dreams the first half; two workers, or two processes, all of it.
    const half = ids.slice(0, DREAMS_PER_WORKER)
    const otherHalf = ids.slice(DREAMS_PER_WORKER)
    const rounds: Round[] = []
    for (let index = 0; index < ROUNDS; index++) {
      const stretches = {
        plain: () => plainProcesses([bench.copy(`plain-${index}`)], [half]),
        one: () => fleet(bench.copy(`one-${index}`), redisUrl, half, 1),
        two: () => fleet(bench.copy(`two-${index}`), redisUrl, ids, 2),
        plainTwo: () =>
          plainProcesses([bench.copy(`plain-a-${index}`), bench.copy(`plain-b-${index}`)], [half, otherHalf]),
      }
      // The order turns round from round to round, so a drift in the machine's load falls on every side alike;
      // each stretch runs next to the one it is compared with (no queue: one process and two; one worker and
      // no queue; one worker and two).
      const order =
        index % 2 === 0
          ? (['plainTwo', 'plain', 'one', 'two'] as const)
          : (['two', 'one', 'plain', 'plainTwo'] as const)
      const round: Partial<Round> = {}
      for (const side of order) round[side] = await stretches[side]()
      rounds.push(round as Round)
    }
    const noFsync = NO_FSYNC_SETUP
      ? {
          one: await fleet(bench.copy('one-nofsync'), redisUrl, half, 1, NO_FSYNC_SETUP),
          two: await fleet(bench.copy('two-nofsync'), redisUrl, ids, 2, NO_FSYNC_SETUP),
        }
      : null
    if (!noFsync)
      console.log('  fleet: no-fsync control skipped — apt-get install eatmydata to measure fsync’s cost')
    const subject = `${DREAMS_PER_WORKER} workspaces per worker after ${WARM_DREAMS} warm-up dreams, ${MESSAGES} messages over ${DAYS} days each, offline engine, real redis-server, ${cpus().length} cores`
    return [
      throughputRow(rounds, subject),
      queueRow(rounds, subject),
      ...(noFsync
        ? [
            {
              name: 'control (no fsync: eatmydata): fleet throughput, 2 workers vs 1',
              subject,
              baseline: `${perMinute(noFsync.one).toFixed(1)} dreams/min on 1 worker`,
              measured: `${perMinute(noFsync.two).toFixed(1)} dreams/min on 2 workers`,
              ratio: perMinute(noFsync.two) / perMinute(noFsync.one),
              target: 'the fleet row’s ratio with no fsync sleeps: the gap between the two is what they cost',
              notes: `1 worker: ${describe(noFsync.one)}\n    2 workers: ${describe(noFsync.two)}\n    ${cpuPerDreamTwoVsOne(noFsync.one, noFsync.two)}`,
            },
          ]
        : []),
      noQueueCpuRow(rounds, subject),
      ...controls,
    ]
  } finally {
    await bench.close()
  }
}
