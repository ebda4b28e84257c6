// `dreamlane status`: engine, lock, latest run, last consolidation and the daily-note backlog.
import type { Command } from 'commander'
import { cliContext } from '../context.js'

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('which engine a dream would use, whether one is running, the latest run and the backlog')
    .action(async (_options, command: Command) => {
      const ctx = await cliContext(command)
      const { readWorkspaceStatus } = await import('../../read-only.js')
      const { describeStatus } = await import('../../chat/describe-status.js')
      const status = await readWorkspaceStatus({ config: ctx.config, messagesDbWait: ctx.dbWait })
      ctx.print(status, () => `workspace: ${status.workspace}\n${describeStatus(status)}`)
    })
}
