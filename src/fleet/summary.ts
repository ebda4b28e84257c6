// The fleet at a glance for the Dreams page: per workspace its last dream, daily-note backlog and failed jobs.
import type { Queue } from 'bullmq'
import type { Clock } from '../clock.js'
import { openStateDb } from '../db/state.js'
import { RunStore } from '../dream/runs.js'
import type { RunRecord } from '../dream/types.js'
import { readBacklog } from '../notes/backlog.js'
import { workspacePaths } from '../notes/paths.js'
import { dayWindow } from '../time/local-day.js'
import type { FleetRegistry } from './registry.js'
import { readFleetStatus, type FleetQueueStatus } from './status.js'

export interface FleetWorkspaceSummary {
  id: string
  timeZone: string
  lastDream: Pick<RunRecord, 'id' | 'mode' | 'status' | 'finishedAt'> | null
  /** Daily notes of the auto window still needing a summary. */
  backlog: number
  failedJobs: number
}

export interface FleetSummary {
  counts: FleetQueueStatus['counts']
  workspaces: FleetWorkspaceSummary[]
}

/** Reads each workspace's newest dream and backlog (state.db opened briefly) and the queue's failed jobs. */
export async function readFleetSummary(
  registry: FleetRegistry,
  queue: Queue,
  clock: Clock,
): Promise<FleetSummary> {
  const { counts, failed } = await readFleetStatus(queue, { limit: 1_000 })
  const workspaces: FleetWorkspaceSummary[] = []
  for (const { id, config } of registry.workspaces) {
    const paths = workspacePaths(config)
    const state = openStateDb(paths.stateDb)
    let last: RunRecord | undefined
    try {
      last = new RunStore(state, clock, config.timezone)
        .list({ limit: 5 })
        .find((run) => run.kind === 'dream')
    } finally {
      state.close()
    }
    const window = dayWindow(clock.now(), config.dream.autoDays, config.timezone)
    workspaces.push({
      id,
      timeZone: config.timezone,
      lastDream: last
        ? { id: last.id, mode: last.mode, status: last.status, finishedAt: last.finishedAt }
        : null,
      backlog: (await readBacklog(paths, window.days)).length,
      failedJobs: failed.filter((job) => job.workspaceId === id).length,
    })
  }
  return { counts, workspaces }
}
