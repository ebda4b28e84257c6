// `dreamlane status`: engine, lock, latest run, last consolidation and the daily-note backlog.
import type { Command } from 'commander'
import { cliContextFor, globalOptions, type GlobalOptions } from '../context.js'
import { printLine } from '../std-streams.js'
import { workInZone } from '../work-in-zone.js'

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('which engine a dream would use, whether one is running, the latest run and the backlog')
    .action((_options, command: Command) => runStatus(globalOptions(command)))
}

/**
 * What the command does, also run directly (without commander) when its arguments are only global options. The
 * result is its only output, so it goes straight to stdout's file descriptor (`printLine`).
 */
export async function runStatus(options: GlobalOptions): Promise<void> {
  const ctx = await cliContextFor(options, {}, printLine)
  workInZone(ctx.config.timezone)
  const { readWorkspaceStatus, describeStatus } = await import('../status-deps.js')
  const status = await readWorkspaceStatus({ config: ctx.config, messagesDbWait: ctx.dbWait })
  ctx.print(status, () => `workspace: ${status.workspace}\n${describeStatus(status)}`)
}
