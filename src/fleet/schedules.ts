// The fleet's triggers: AutoDream per workspace in its own zone, the nightly tick for all, and first-boot bootstraps.
import type { Queue } from 'bullmq'
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import { openStateDb } from '../db/state.js'
import { workspacePaths } from '../notes/paths.js'
import { AutoDreamScheduler, previousFireTime } from '../schedule/autodream.js'
import { prepareBootstrap } from '../schedule/bootstrap.js'
import type { Timers } from '../schedule/timers.js'
import { dreamJobFor } from './jobs.js'
import { enqueueDream, KEEP_COMPLETED_S, type EnqueueResult } from './producer.js'
import type { FleetRegistry, FleetWorkspace } from './registry.js'

export interface FleetTriggerDeps {
  queue: Queue
  clock: Clock
  log: Logger
}

/**
 * How far back a starting producer looks for a missed AutoDream. Finished auto jobs are kept three days, so
 * within two the missed night's job, if some producer did enqueue it, is still there to coalesce with.
 */
export const CATCH_UP_LOOKBACK_MS = KEEP_COMPLETED_S * 1000 - 24 * 3_600_000

/** Enqueues the auto dream of the window ending on `at`'s local day (default: today) in the workspace's zone. */
export function enqueueAutoDream(
  workspace: FleetWorkspace,
  deps: FleetTriggerDeps,
  at: Date = deps.clock.now(),
): Promise<EnqueueResult> {
  const { config } = workspace
  return enqueueDream(
    deps.queue,
    dreamJobFor({
      workspaceId: workspace.id,
      mode: 'auto',
      days: config.dream.autoDays,
      now: at,
      timeZone: config.timezone,
      retryDelaysMinutes: config.autoDream.retryDelaysMinutes,
    }),
  )
}

/**
 * A producer starting up: for each workspace whose AutoDream last fired within CATCH_UP_LOOKBACK_MS, enqueues
 * the window that fire would have enqueued. If a producer was up then, that job exists and this coalesces;
 * if none was, the missed night dreams now instead of the next night. Only the latest fire is caught up
 * (its window reaches back `dream.autoDays` days).
 */
export async function catchUpFleet(
  registry: FleetRegistry,
  deps: FleetTriggerDeps,
): Promise<(EnqueueResult & { workspaceId: string; firedAt: string })[]> {
  const now = deps.clock.now()
  const results = []
  for (const workspace of registry.workspaces) {
    const { autoDream, timezone } = workspace.config
    if (!autoDream.enabled) continue
    const firedAt = previousFireTime(autoDream.cron, timezone, now)
    if (!firedAt || now.getTime() - firedAt.getTime() > CATCH_UP_LOOKBACK_MS) continue
    const result = await enqueueAutoDream(workspace, deps, firedAt)
    results.push({ workspaceId: workspace.id, firedAt: firedAt.toISOString(), ...result })
  }
  return results
}

/** The nightly tick for every workspace at once (what a cron line or a test calls); the gates decide on the worker. */
export async function tickFleet(
  registry: FleetRegistry,
  deps: FleetTriggerDeps,
): Promise<(EnqueueResult & { workspaceId: string })[]> {
  const results = []
  for (const workspace of registry.workspaces)
    results.push({ workspaceId: workspace.id, ...(await enqueueAutoDream(workspace, deps)) })
  return results
}

/** Starts one AutoDream cron per workspace, each in its own time zone; returns a stop function. */
export function startFleetSchedules(
  registry: FleetRegistry,
  deps: FleetTriggerDeps & { timers: Timers },
): { stop(): void; nextRunAt(id: string): Date | null } {
  const schedulers = new Map<string, AutoDreamScheduler>()
  for (const workspace of registry.workspaces) {
    if (!workspace.config.autoDream.enabled) continue
    const scheduler = new AutoDreamScheduler({
      cron: workspace.config.autoDream.cron,
      timeZone: workspace.config.timezone,
      clock: deps.clock,
      timers: deps.timers,
      onFire: async () => {
        try {
          const result = await enqueueAutoDream(workspace, deps)
          deps.log.info({ workspace: workspace.id, ...result }, 'AutoDream enqueued')
        } catch (error) {
          // Redis down at the tick: logged; the next tick (or a restart's catch-up) enqueues the window.
          deps.log.error({ err: error, workspace: workspace.id }, 'AutoDream could not be enqueued')
        }
      },
    })
    scheduler.start()
    schedulers.set(workspace.id, scheduler)
  }
  return {
    stop: () => schedulers.forEach((scheduler) => scheduler.stop()),
    nextRunAt: (id) => schedulers.get(id)?.nextRunAt ?? null,
  }
}

/**
 * First boot of each workspace whose core memory files are missing: claims the bootstrap in its state.db
 * (once, however many producers start) and enqueues one bootstrap dream.
 */
export async function bootstrapFleet(
  registry: FleetRegistry,
  deps: FleetTriggerDeps,
): Promise<(EnqueueResult & { workspaceId: string })[]> {
  const results = []
  for (const workspace of registry.workspaces) {
    const { config } = workspace
    const paths = workspacePaths(config)
    const state = openStateDb(paths.stateDb)
    let claimed: boolean
    try {
      const decision = await prepareBootstrap({
        paths,
        state,
        clock: deps.clock,
        reclaimAfterMs: config.dream.runTimeoutMs,
      })
      claimed = decision.claimed
    } finally {
      state.close()
    }
    if (!claimed) continue
    const job = dreamJobFor({
      workspaceId: workspace.id,
      mode: 'bootstrap',
      days: config.dream.bootstrapDays,
      now: deps.clock.now(),
      timeZone: config.timezone,
    })
    results.push({ workspaceId: workspace.id, ...(await enqueueDream(deps.queue, job)) })
  }
  return results
}
