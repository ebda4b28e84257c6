// One fleet job, run through the same lifecycle as a local dream: open the workspace, recover, trigger, wait.
import { hostname } from 'node:os'
import { rm } from 'node:fs/promises'
import type { Logger } from 'pino'
import { autoChatJid } from '../app/schedule.js'
import type { Clock } from '../clock.js'
import { openDreamlane, type DreamlaneOptions } from '../create.js'
import type { RunRecord } from '../dream/types.js'
import { describeLock, readLock } from '../notes/lock.js'
import { workspacePaths } from '../notes/paths.js'
import type { DreamJob } from './jobs.js'
import type { FleetModelLimiter } from './model-rate-limit.js'
import type { FleetWorkspace } from './registry.js'

/** How a worker opens each workspace it dreams, beyond its config (the fleet bench's in-process baseline too). */
export const FLEET_DREAM_OPTIONS = {
  /**
   * A worker exists to dream, so its offline engine's thread is kept between jobs however far apart they come: a
   * new thread loads and compiles the engine again, about 1.4 s of CPU, four times a small dream's whole cost
   * (measured on the fleet bench's workspaces; the default 30 s would end it between a night's waves of jobs).
   */
  engineIdleMs: Number.POSITIVE_INFINITY,
  /**
   * The reader thread keeps chat turns from waiting behind a dream's message reads; a worker has no chat, and
   * the thread, started anew for each workspace it opens, cost ~49 ms of CPU per job, 13% of a small dream's.
   */
  messagesOnThread: false,
} as const satisfies Pick<DreamlaneOptions, 'engineIdleMs' | 'messagesOnThread'>

export interface DreamJobDeps {
  log: Logger
  clock: Clock
  env: Record<string, string | undefined>
  /** The fleet's shared model budget. */
  limiter: FleetModelLimiter
}

/**
 * Dreams `job` on `workspace`. The caller holds the fleet lock, so no other worker dreams here: a file lock
 * left by a worker on another machine is an orphan (its pid cannot be checked from here) and is removed
 * before start-up recovery marks its run `lost`, exactly as a restarted single process would.
 */
export async function runDreamJob(
  job: DreamJob,
  workspace: FleetWorkspace,
  deps: DreamJobDeps,
): Promise<RunRecord> {
  await removeForeignHostLock(workspace, deps.log)
  const dreamlane = openDreamlane({
    config: workspace.config,
    logger: deps.log.child({ workspace: workspace.id }),
    env: deps.env,
    clock: deps.clock,
    modelGate: deps.limiter.gate,
    ...FLEET_DREAM_OPTIONS,
    onModelRetry: (attempt) => {
      deps.log.warn({ workspace: workspace.id, ...attempt }, 'model request retry')
      deps.limiter.onRetry(attempt)
    },
  })
  try {
    await dreamlane.recover()
    const trigger = dreamlane.trigger({
      mode: job.mode,
      chatJid: job.chatJid ?? autoChatJid({ messages: dreamlane.messages, clock: deps.clock }),
      days: job.days,
      endDay: job.endDay,
      ...(job.lastRunId ? { retryOf: job.lastRunId } : {}),
    })
    return await trigger.done
  } finally {
    // shutdown, not close: it also cancels the in-process auto-retry timer; BullMQ owns retries in a fleet.
    await dreamlane.shutdown()
  }
}

async function removeForeignHostLock(workspace: FleetWorkspace, log: Logger): Promise<void> {
  const { lockFile } = workspacePaths(workspace.config)
  const holder = await readLock(lockFile)
  if (!holder || holder.host === hostname()) return
  log.warn(
    { workspace: workspace.id, holder },
    `removing the file lock of a worker that is gone: ${describeLock(holder)}`,
  )
  await rm(lockFile, { force: true })
}
