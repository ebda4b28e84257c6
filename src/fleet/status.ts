// What the fleet's queue holds: counts by state and the failed jobs (dead letters) per workspace.
import type { Queue } from 'bullmq'
import type { DreamJob } from './jobs.js'

export interface FailedDreamJob {
  jobId: string
  workspaceId: string
  mode: DreamJob['mode']
  endDay: string
  attempts: number
  reason: string
  /** The last run the job left in the workspace's run records, when it got that far. */
  lastRunId: string | null
  failedAt: string | null
}

export interface FleetQueueStatus {
  counts: Record<'waiting' | 'active' | 'delayed' | 'completed' | 'failed', number>
  failed: FailedDreamJob[]
}

/** Counts by state and up to `limit` failed jobs, newest first (optionally of one workspace). */
export async function readFleetStatus(
  queue: Queue,
  options: { limit?: number; workspaceId?: string } = {},
): Promise<FleetQueueStatus> {
  const raw = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed')
  const counts = {
    waiting: raw.waiting ?? 0,
    active: raw.active ?? 0,
    delayed: raw.delayed ?? 0,
    completed: raw.completed ?? 0,
    failed: raw.failed ?? 0,
  }
  const limit = options.limit ?? 50
  // Filtering by workspace happens here, so read a wider slice when asked for one workspace.
  const jobs = await queue.getFailed(0, (options.workspaceId ? limit * 20 : limit) - 1)
  const failed = jobs
    .map((job): FailedDreamJob => {
      const data = job.data as Partial<DreamJob>
      return {
        jobId: job.id ?? '?',
        workspaceId: data.workspaceId ?? '?',
        mode: data.mode ?? 'manual',
        endDay: data.endDay ?? '?',
        attempts: job.attemptsMade,
        reason: job.failedReason ?? 'no reason recorded',
        lastRunId: data.lastRunId ?? null,
        failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
      }
    })
    .filter((job) => !options.workspaceId || job.workspaceId === options.workspaceId)
    .slice(0, limit)
  return { counts, failed }
}

export function describeFailedJob(job: FailedDreamJob): string {
  const run = job.lastRunId ? `, last run ${job.lastRunId}` : ''
  return `${job.jobId}: failed after ${job.attempts} attempt(s)${run} — ${job.reason}`
}
