// What a fleet dream job is: its queue, its data (checked when a worker takes it) and its deterministic id.
import { z } from 'zod'
import { dayWindow, startOfLocalDay, type DayWindow } from '../time/local-day.js'

/** The one BullMQ queue every producer and worker of a fleet shares. */
export const DREAM_QUEUE = 'dreamlane-dreams'

const localDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a local day YYYY-MM-DD')

export const dreamJobSchema = z
  .object({
    workspaceId: z.string().min(1),
    mode: z.enum(['auto', 'manual', 'bootstrap']),
    chatJid: z.string().min(1).optional(),
    days: z.number().int().positive(),
    /** The window's last local day in the workspace's zone, fixed when the job was made. */
    endDay: localDay,
    /** Minutes before retry 1, 2, …: the workspace's autoDream.retryDelaysMinutes (auto jobs). */
    retryDelaysMinutes: z.array(z.number().positive()).default(() => []),
    /** The run the previous attempt left, so a retry's record points at it (`retryOf`). */
    lastRunId: z.string().optional(),
  })
  .strict()

export type DreamJobData = z.input<typeof dreamJobSchema>
export type DreamJob = z.output<typeof dreamJobSchema>

/** `alice.auto.2026-11-20..2026-11-21`: one job per workspace, mode and window, so a double trigger coalesces. */
export function dreamJobId(job: Pick<DreamJob, 'workspaceId' | 'mode' | 'days' | 'endDay'>): string {
  const firstDay = windowOfJob(job, 'UTC').firstDay
  // BullMQ keys use ":" as a separator, so ids avoid it.
  return `${job.workspaceId}.${job.mode}.${firstDay}..${job.endDay}`
}

/** The window a job dreams over, in its workspace's zone. */
export function windowOfJob(job: Pick<DreamJob, 'days' | 'endDay'>, timeZone: string): DayWindow {
  return dayWindow(startOfLocalDay(job.endDay, timeZone), job.days, timeZone)
}

/** The job for a dream of `days` days ending today in `timeZone`. */
export function dreamJobFor(input: {
  workspaceId: string
  mode: DreamJob['mode']
  days: number
  now: Date
  timeZone: string
  chatJid?: string
  retryDelaysMinutes?: number[]
}): DreamJob {
  const window = dayWindow(input.now, input.days, input.timeZone)
  return {
    workspaceId: input.workspaceId,
    mode: input.mode,
    days: input.days,
    endDay: window.lastDay,
    retryDelaysMinutes: input.mode === 'auto' ? (input.retryDelaysMinutes ?? []) : [],
    ...(input.chatJid ? { chatJid: input.chatJid } : {}),
  }
}
