// `dreamlane mcp`: the workspace's memory and dreams as an MCP server on stdio, for Claude Desktop, Claude Code & co.
import type { Command } from 'commander'
import { existsSync } from 'node:fs'
import { systemClock } from '../../clock.js'
import { MessagesDbMissingError } from '../../errors.js'
import { assertWorkspaceExists } from '../../notes/paths.js'
import { cliContext, cliLogger } from '../context.js'

/** A client gone means stop; a running dream is aborted, but gets this long to close its record. */
const SHUTDOWN_DEADLINE_MS = 4_500

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(
      'serve memory search, reading, notes and dreams to an MCP client over stdio (stdout carries the protocol; logs go to stderr)',
    )
    .action(async (_options, command: Command) => {
      const ctx = await cliContext(command)
      // Refused before the handshake, so the client shows the reason instead of a server that fails every call.
      assertWorkspaceExists(ctx.paths.workspace)
      if (!existsSync(ctx.paths.messagesDb)) throw new MessagesDbMissingError(ctx.paths.messagesDb)
      const { lazyMcpHost } = await import('../../mcp/workspace.js')
      const host = lazyMcpHost({
        // A bug's stack on stderr (the client's log); stdout carries only the protocol.
        logBug: (error, tool) =>
          process.stderr.write(
            `dreamlane mcp: ${tool} failed: ${(error as Error)?.stack ?? String(error)}\n`,
          ),
        // The databases and the logger load with the first call that needs them; no lock is taken until a use case writes.
        open: async () => {
          const log = await cliLogger('silent')
          const { openDreamlane } = await import('../../create.js')
          const { recallSinkFor } = await import('../../chat/recall-hook.js')
          // Memory tools are answered on this event loop while a dream runs on its own thread.
          const dreamlane = openDreamlane({ config: ctx.config, logger: log, dreamThread: true })
          return { dreamlane, clock: systemClock, recall: recallSinkFor(dreamlane, systemClock, log) }
        },
      })
      const stop = async () => {
        setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref()
        await host.opened()?.dreamlane.shutdown()
        process.exit(0)
      }
      process.once('SIGTERM', () => void stop())
      process.once('SIGINT', () => void stop())
      const { serveMcpStdio } = await import('../../mcp/stdio.js')
      await serveMcpStdio(host, { stdin: process.stdin, stdout: process.stdout })
      await stop()
    })
}
