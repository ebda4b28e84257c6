// A fleet worker: takes dream jobs from the shared queue, one dream per workspace across the fleet at a time.
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq'
import { Redis } from 'ioredis'
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { RunRecord } from '../dream/types.js'
import { DreamlaneError } from '../errors.js'
import { runDreamJob } from './dream-job.js'
import { DREAM_QUEUE, dreamJobSchema, type DreamJob } from './jobs.js'
import { fleetWorkspace, type FleetRegistry, type FleetWorkspace } from './registry.js'
import { fleetModelLimiter, type FleetModelLimiter } from './model-rate-limit.js'
import { tryFleetLock } from './workspace-lock.js'

export interface FleetWorkerOptions {
  registry: FleetRegistry
  redisUrl: string
  /** Dreams this worker runs at once (each on a different workspace). @default 1 */
  concurrency?: number
  /**
   * How long a killed worker's claims live: its jobs' locks (then stalled-job recovery hands them to another
   * worker) and its workspaces' fleet locks. Live workers renew both. @default 30000
   */
  claimMs?: number
  /** How long a job waits before trying again when its workspace is dreaming on another worker. @default 2000 */
  busyRetryMs?: number
  clock: Clock
  log: Logger
  env: Record<string, string | undefined>
}

/** What a finished job stores as its return value (BullMQ's completed set, bull-board). */
export interface DreamJobResult {
  runId: string
  status: RunRecord['status']
  gate: RunRecord['gate']
  reason: string | null
}

export interface FleetWorker {
  readonly name: string
  /** Stops taking jobs, waits for the dreams in flight, then disconnects. */
  close(): Promise<void>
}

export function startFleetWorker(options: FleetWorkerOptions): FleetWorker {
  const claimMs = options.claimMs ?? 30_000
  const name = `${hostname()}:${process.pid}`
  const lockClient = new Redis(options.redisUrl, { maxRetriesPerRequest: null })
  // Redis restarting: the clients reconnect on their own; errors are logged rather than crashing the worker.
  lockClient.on('error', (error) => options.log.warn({ err: error }, 'fleet lock connection error'))
  const connection = { url: options.redisUrl, maxRetriesPerRequest: null }
  const queue = new Queue(DREAM_QUEUE, { connection })
  queue.on('error', (error) => options.log.warn({ err: error }, 'fleet queue connection error'))
  const { rateLimit } = options.registry
  const limiter = fleetModelLimiter(lockClient, rateLimit ?? {}, {
    sleep: (ms) => sleep(ms),
    onPause: (ms) => {
      options.log.warn({ pauseMs: ms }, 'the model API asked to wait: pausing the fleet')
      // BullMQ's rate limiter: no worker starts a new dream until the provider's retry-after has passed.
      queue.rateLimit(ms).catch((error) => options.log.warn({ err: error }, 'could not pause the queue'))
    },
  })
  const worker = new Worker<DreamJob, DreamJobResult>(
    DREAM_QUEUE,
    (job, token) => processDreamJob(job, token, { ...options, claimMs, lockClient, name, limiter }),
    {
      connection,
      name,
      concurrency: options.concurrency ?? 1,
      lockDuration: claimMs,
      stalledInterval: claimMs,
      maxStalledCount: 2,
      settings: { backoffStrategy: dreamRetryDelayMs },
      // Every dream makes at least one model request, so the request budget also bounds dream starts; and
      // BullMQ honours a queue-wide pause (queue.rateLimit) only for workers that have a limiter.
      limiter: rateLimit?.requests
        ? { max: rateLimit.requests, duration: rateLimit.perSeconds * 1000 }
        : { max: 1_000_000, duration: 1_000 },
    },
  )
  worker.on('error', (error) => options.log.warn({ err: error }, 'fleet worker error'))
  worker.on('failed', (job, error) =>
    options.log.warn({ jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'fleet job attempt failed'),
  )
  return {
    name,
    async close() {
      await worker.close()
      await queue.close()
      lockClient.disconnect()
    },
  }
}

/** The custom backoff `dream-retry`: the workspace's autoDream.retryDelaysMinutes, carried in the job. */
function dreamRetryDelayMs(
  attemptsMade: number,
  _type?: string,
  _error?: Error,
  job?: { data: unknown },
): number {
  const delays = (job?.data as Partial<DreamJob> | undefined)?.retryDelaysMinutes ?? []
  const minutes = delays[attemptsMade - 1] ?? delays.at(-1) ?? 1
  return Math.round(minutes * 60_000)
}

interface ProcessDeps extends FleetWorkerOptions {
  claimMs: number
  lockClient: Redis
  name: string
  limiter: FleetModelLimiter
}

async function processDreamJob(
  job: Job<DreamJob, DreamJobResult>,
  token: string | undefined,
  deps: ProcessDeps,
): Promise<DreamJobResult> {
  const { data, workspace } = checkJob(job, deps.registry)
  const lock = await tryFleetLock(deps.lockClient, workspace.id, { ttlMs: deps.claimMs, holder: deps.name })
  if (!lock) {
    // Another worker is dreaming this workspace: come back later without spending an attempt.
    await job.moveToDelayed(deps.clock.now().getTime() + (deps.busyRetryMs ?? 2_000), token)
    throw new DelayedError()
  }
  let run: RunRecord
  try {
    run = await runDreamJob(data, workspace, deps)
  } finally {
    await lock.release()
  }
  const result: DreamJobResult = { runId: run.id, status: run.status, gate: run.gate, reason: run.reason }
  if (isRetryable(data, run)) {
    await job.updateData({ ...data, lastRunId: run.id })
    throw new DreamlaneError(
      run.errorCode ?? 'PROVIDER_FAILED',
      `run ${run.id} ${run.status}: ${run.reason ?? 'no reason recorded'}`,
    )
  }
  return result
}

/** As on one machine: a failed dream is retried (auto: failed or degraded, with the workspace's backoff). */
function isRetryable(data: DreamJob, run: RunRecord): boolean {
  if (run.status === 'failed' || run.status === 'cancelled') return true
  return data.mode === 'auto' && run.status === 'degraded' && data.retryDelaysMinutes.length > 0
}

function checkJob(job: Job, registry: FleetRegistry): { data: DreamJob; workspace: FleetWorkspace } {
  const parsed = dreamJobSchema.safeParse(job.data)
  // Bad data or an unknown workspace will not get better with retries: straight to the failed set.
  if (!parsed.success) throw new UnrecoverableError(`job ${job.id} has invalid data: ${parsed.error.message}`)
  try {
    return { data: parsed.data, workspace: fleetWorkspace(registry, parsed.data.workspaceId) }
  } catch (error) {
    throw new UnrecoverableError((error as Error).message)
  }
}
