// `dreamlane worker`: takes dream jobs from the fleet's Redis queue and runs them through the usual lifecycle.
import type { Command } from 'commander'
import { fleetCliContext, withFleetOptions } from '../fleet-context.js'
import { cliLogger } from '../context.js'
import { parseCount } from '../commander.js'

export function registerWorker(program: Command): void {
  withFleetOptions(
    program
      .command('worker')
      .description(
        'run fleet dreams from Redis: one dream per workspace across all workers, retried when one dies',
      ),
  )
    .option(
      '--concurrency <n>',
      'dreams at once in this process (each on another workspace)',
      parseCount('--concurrency'),
      1,
    )
    .option(
      '--claim-ms <ms>',
      "how long a killed worker's jobs and workspaces stay claimed before another worker takes them over",
      parseCount('--claim-ms', 1000),
      30_000,
    )
    .action(async (options: { concurrency: number; claimMs: number }, command: Command) => {
      const ctx = await fleetCliContext(command)
      const { startFleetWorker } = await import('../../fleet/worker.js')
      const { systemClock } = await import('../../clock.js')
      const worker = startFleetWorker({
        registry: ctx.registry,
        redisUrl: ctx.redisUrl,
        concurrency: options.concurrency,
        claimMs: options.claimMs,
        clock: systemClock,
        log: await cliLogger('info'),
        env: process.env,
      })
      ctx.progress(
        `worker ${worker.name}: ${ctx.registry.workspaces.length} workspace(s), concurrency ${options.concurrency}, Redis ${ctx.redisUrl}`,
      )
      // The first signal finishes the dreams in flight (their jobs complete); a second one kills at once, and
      // stalled-job recovery hands those jobs to another worker.
      await new Promise<void>((resolve) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const)
          process.once(signal, () => {
            ctx.progress('stopping: finishing the dreams in flight (signal again to kill)…')
            process.once(signal, () => process.exit(130))
            resolve()
          })
      })
      await worker.close()
    })
}
