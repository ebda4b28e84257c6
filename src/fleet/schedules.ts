// The fleet's triggers: AutoDream per workspace in its own zone, the nightly tick for all, and first-boot bootstraps.
import type { Queue } from 'bullmq'
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import { openStateDb } from '../db/state.js'
import { workspacePaths } from '../notes/paths.js'
import { AutoDreamScheduler } from '../schedule/autodream.js'
import { prepareBootstrap } from '../schedule/bootstrap.js'
import type { Timers } from '../schedule/timers.js'
import { dreamJobFor } from './jobs.js'
import { enqueueDream, type EnqueueResult } from './producer.js'
import type { FleetRegistry, FleetWorkspace } from './registry.js'

export interface FleetTriggerDeps {
  queue: Queue
  clock: Clock
  log: Logger
}

/** Enqueues the auto dream of the window ending today in the workspace's own zone. */
export function enqueueAutoDream(workspace: FleetWorkspace, deps: FleetTriggerDeps): Promise<EnqueueResult> {
  const { config } = workspace
  return enqueueDream(
    deps.queue,
    dreamJobFor({
      workspaceId: workspace.id,
      mode: 'auto',
      days: config.dream.autoDays,
      now: deps.clock.now(),
      timeZone: config.timezone,
      retryDelaysMinutes: config.autoDream.retryDelaysMinutes,
    }),
  )
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
          // Redis down at the tick: logged; the next tick (or a restart's catch-up tick) enqueues the window.
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
