// `dreamlane status`: engine, lock, latest run, last consolidation and the daily-note backlog.
import type { Command } from 'commander'
import { cliLogger, cliContext } from '../context.js'

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('which engine a dream would use, whether one is running, the latest run and the backlog')
    .action(async (_options, command: Command) => {
      const ctx = await cliContext(command)
      const { createDreamlane } = await import('../../create.js')
      const { describeStatus } = await import('../../chat/describe-status.js')
      const dreamlane = createDreamlane({
        config: ctx.config,
        logger: await cliLogger(),
        messagesDbWait: ctx.dbWait,
      })
      try {
        const status = await dreamlane.status()
        ctx.print(status, () => `workspace: ${status.workspace}\n${describeStatus(status)}`)
      } finally {
        await dreamlane.close()
      }
    })
}
