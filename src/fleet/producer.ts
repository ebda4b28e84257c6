// The producer side of the fleet: adds dream jobs under their deterministic ids, so a double trigger coalesces.
import type { Queue } from 'bullmq'
import { dreamJobId, type DreamJob } from './jobs.js'

/** How long finished jobs are kept: a window's auto job must outlive the window's day, so it fires once. */
export const KEEP_COMPLETED_S = 3 * 24 * 3600
const KEEP_FAILED_S = 30 * 24 * 3600

export interface EnqueueResult {
  jobId: string
  /** True when a job for this workspace, mode and window already existed and this trigger joined it. */
  coalesced: boolean
  /** The job's state after this trigger (waiting, delayed, active, completed, failed). */
  state: string
}

/**
 * Adds `job` unless its id is taken. An auto or bootstrap job is done once per window, so a finished one
 * still coalesces; a manual dream that already finished may be asked for again, so that job is replaced.
 */
export async function enqueueDream(queue: Queue, job: DreamJob): Promise<EnqueueResult> {
  const jobId = dreamJobId(job)
  const existing = await queue.getJob(jobId)
  if (existing) {
    const state = await existing.getState()
    const isFinished = state === 'completed' || state === 'failed'
    if (!(job.mode === 'manual' && isFinished)) return { jobId, coalesced: true, state }
    await existing.remove()
  }
  const added = await queue.add(job.mode, job, {
    jobId,
    // Auto dreams retry with the workspace's backoff (the worker's custom strategy reads the delays).
    attempts: job.retryDelaysMinutes.length + 1,
    backoff: { type: 'dream-retry' },
    removeOnComplete: { age: KEEP_COMPLETED_S },
    removeOnFail: { age: KEEP_FAILED_S },
  })
  // Two producers racing on one id still make one job: BullMQ's add is a no-op for an id it holds.
  return { jobId, coalesced: false, state: await added.getState() }
}
