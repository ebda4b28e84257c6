// `dreamlane serve`: the long-running process — recovery, bootstrap, nightly AutoDream, clean shutdown.
import { createInterface } from 'node:readline'
import type { Command } from 'commander'
import { describeStatus } from '../../chat/describe-status.js'
import { createDreamlane, type Dreamlane } from '../../create.js'
import { cliLogger, cliContext } from '../context.js'
import { dreamProgressPrinter } from '../dream-progress.js'

/** SIGTERM/SIGINT must end the process within this, even if something hangs. */
const SHUTDOWN_DEADLINE_MS = 4_500

function stopOnSignals(lane: Dreamlane, say: (line: string) => void): void {
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    say(`${signal}: stopping — no new work, aborting the running dream`)
    setTimeout(() => {
      say('shutdown deadline reached; exiting')
      process.exit(1)
    }, SHUTDOWN_DEADLINE_MS).unref()
    lane
      .shutdown()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error)
        process.exit(1)
      })
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run continuously: recover from crashes, bootstrap a new workspace, AutoDream nightly')
    .option('--stdin-chat <jid>', 'treat each line on stdin as chat input from <jid> (e.g. "/dream 7") and print replies')
    .action(async (options: { stdinChat?: string }, command: Command) => {
      const ctx = cliContext(command)
      const say = (line: string) => console.log(line)
      const lane = createDreamlane({ config: ctx.config, logger: cliLogger('info'), onEvent: dreamProgressPrinter(say), onSummary: (s) => say(`[summary → ${s.chatJid}]\n${s.text}`) })
      stopOnSignals(lane, say)
      const recovered = await lane.recover()
      if (recovered.lostRuns.length || recovered.reapedLock || recovered.removedChannels.length) {
        say(`recovered: ${recovered.lostRuns.length} run(s) marked lost, lock ${recovered.reapedLock ? 'reaped' : 'clean'}, ${recovered.removedChannels.length} dream channel(s) removed`)
      }
      const boot = await lane.bootstrap()
      if (boot) say(`first boot: bootstrap dream ${boot.run.id} queued`)
      lane.startAutoDream()
      say(`dreamlane serving ${ctx.paths.workspace} (pid ${process.pid})`)
      say(describeStatus(await lane.status()))
      if (options.stdinChat) {
        const jid = options.stdinChat
        const lines = createInterface({ input: process.stdin })
        lines.on('line', (line) => {
          void lane.handleChatInput(jid, line).then((reply) => say(reply ?? `(not a command: ${line.slice(0, 40)})`))
        })
      }
      // Keep the process alive: schedules use unref'd timers.
      setInterval(() => undefined, 1 << 30)
    })
}
