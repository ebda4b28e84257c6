// `dreamlane fleet list|tick|trigger|bootstrap|run|status`: the producer side of a fleet of workspaces on Redis.
import type { Command } from 'commander'
import type { Queue } from 'bullmq'
import { fleetCliContext, withFleetOptions, type FleetCliContext } from '../fleet-context.js'
import { cliLogger } from '../context.js'
import { cappedDays, parseCount } from '../commander.js'

/** Opens the queue, runs `work`, always closes it; bullmq loads only here, never for `--help`. */
async function withQueue<T>(ctx: FleetCliContext, work: (queue: Queue) => Promise<T>): Promise<T> {
  const { openDreamQueue } = await import('../../fleet/queue.js')
  const queue = await openDreamQueue(ctx.redisUrl)
  try {
    return await work(queue)
  } finally {
    await queue.close()
  }
}

async function triggerDeps(queue: Queue) {
  const { systemClock } = await import('../../clock.js')
  return { queue, clock: systemClock, log: await cliLogger() }
}

function describeEnqueued(
  results: { workspaceId: string; jobId: string; coalesced: boolean; state: string }[],
) {
  if (results.length === 0) return 'nothing to enqueue'
  return results
    .map((r) => `${r.workspaceId}: ${r.coalesced ? `joined ${r.jobId} (${r.state})` : `enqueued ${r.jobId}`}`)
    .join('\n')
}

export function registerFleet(program: Command): void {
  const fleet = withFleetOptions(
    program
      .command('fleet')
      .description(
        'dreams for a fleet of workspaces on Redis: the registry, triggers and the queue (see `worker`)',
      ),
  )

  fleet
    .command('list')
    .description('check the registry and list its workspaces with their zones and AutoDream schedules')
    .action(async (_options, command: Command) => {
      const ctx = await fleetCliContext(command)
      const rows = ctx.registry.workspaces.map(({ id, config }) => ({
        id,
        workspace: config.workspace,
        timezone: config.timezone,
        autoDream: config.autoDream.enabled ? config.autoDream.cron : 'off',
      }))
      ctx.print({ file: ctx.registry.file, redis: ctx.redisUrl, workspaces: rows }, () =>
        [
          `${rows.length} workspace(s) in ${ctx.registry.file}:`,
          ...rows.map((r) => `  ${r.id}  ${r.workspace}  ${r.timezone}  AutoDream ${r.autoDream}`),
        ].join('\n'),
      )
    })

  fleet
    .command('tick')
    .description(
      "enqueue every workspace's AutoDream for its window ending today (its own zone); the gates decide",
    )
    .action(async (_options, command: Command) => {
      const ctx = await fleetCliContext(command)
      const { tickFleet } = await import('../../fleet/schedules.js')
      const results = await withQueue(ctx, async (queue) => tickFleet(ctx.registry, await triggerDeps(queue)))
      ctx.print(results, () => describeEnqueued(results))
    })

  fleet
    .command('trigger <workspace>')
    .description('enqueue a manual dream of one workspace (joins the one queued for the same window)')
    .option(
      '-d, --days <n>',
      "window length in local days (default: the workspace's dream.defaultDays)",
      parseCount('--days'),
    )
    .option('-c, --chat <jid>', 'chat the summary is posted to (default: the first chat)')
    .action(async (id: string, options: { days?: number; chat?: string }, command: Command) => {
      const ctx = await fleetCliContext(command)
      const { fleetWorkspace } = await import('../../fleet/registry.js')
      const { dreamJobFor } = await import('../../fleet/jobs.js')
      const { enqueueDream } = await import('../../fleet/producer.js')
      const { systemClock } = await import('../../clock.js')
      const { config } = fleetWorkspace(ctx.registry, id)
      const job = dreamJobFor({
        workspaceId: id,
        mode: 'manual',
        days: cappedDays(options.days ?? config.dream.defaultDays, config.dream.maxDays, ctx.progress),
        now: systemClock.now(),
        timeZone: config.timezone,
        ...(options.chat ? { chatJid: options.chat } : {}),
      })
      const result = await withQueue(ctx, (queue) => enqueueDream(queue, job))
      ctx.print(result, () => describeEnqueued([{ workspaceId: id, ...result }]))
    })

  fleet
    .command('bootstrap')
    .description(
      'first boot: enqueue one bootstrap dream for each workspace whose core memory files are missing',
    )
    .action(async (_options, command: Command) => {
      const ctx = await fleetCliContext(command)
      const { bootstrapFleet } = await import('../../fleet/schedules.js')
      const results = await withQueue(ctx, async (queue) =>
        bootstrapFleet(ctx.registry, await triggerDeps(queue)),
      )
      ctx.print(results, () => describeEnqueued(results))
    })

  fleet
    .command('run')
    .description(
      'the producer: bootstraps, catches up AutoDreams missed while it was down, then runs AutoDream for every workspace in its own zone until stopped',
    )
    .action(async (_options, command: Command) => {
      const ctx = await fleetCliContext(command)
      const { openDreamQueue } = await import('../../fleet/queue.js')
      const { bootstrapFleet, catchUpFleet, startFleetSchedules } = await import('../../fleet/schedules.js')
      const { systemTimers } = await import('../../schedule/timers.js')
      const queue = await openDreamQueue(ctx.redisUrl, { retry: true })
      const deps = { ...(await triggerDeps(queue)), log: await cliLogger('info') }
      const boot = await bootstrapFleet(ctx.registry, deps)
      if (boot.length) ctx.progress(describeEnqueued(boot))
      // AutoDreams that fired while no producer ran: their windows now, once (a job already there coalesces).
      const missed = (await catchUpFleet(ctx.registry, deps)).filter((result) => !result.coalesced)
      for (const result of missed) deps.log.info(result, 'missed AutoDream enqueued')
      if (missed.length) ctx.progress(`caught up:\n${describeEnqueued(missed)}`)
      const schedules = startFleetSchedules(ctx.registry, { ...deps, timers: systemTimers })
      ctx.progress(
        `fleet producer: ${ctx.registry.workspaces.length} workspace(s), Redis ${ctx.redisUrl}; Ctrl-C stops`,
      )
      await new Promise<void>((resolve) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve())
      })
      schedules.stop()
      await queue.close()
    })

  fleet
    .command('status')
    .description(
      'the queue: jobs waiting, active, delayed, completed and failed, and the failed ones per workspace',
    )
    .option('-n, --limit <n>', 'failed jobs shown', parseCount('--limit'), 20)
    .action(async (options: { limit: number }, command: Command) => {
      const ctx = await fleetCliContext(command)
      const { readFleetStatus, describeFailedJob } = await import('../../fleet/status.js')
      const status = await withQueue(ctx, (queue) => readFleetStatus(queue, { limit: options.limit }))
      const { counts } = status
      ctx.print(status, () =>
        [
          `queue: ${counts.waiting} waiting, ${counts.active} active, ${counts.delayed} delayed, ${counts.completed} completed, ${counts.failed} failed`,
          ...status.failed.map((job) => `  ${describeFailedJob(job)}`),
        ].join('\n'),
      )
    })
}
