// `dreamlane serve`: the long-running process — recovery, bootstrap, nightly AutoDream, clean shutdown.
import { createInterface } from 'node:readline'
import type { Command } from 'commander'
import { InvalidArgumentError } from '../commander.js'
import type { Dreamlane } from '../../create.js'
import { DreamlaneError, errorMessage } from '../../errors.js'
import { DEFAULT_HOST, DEFAULT_PORT } from '../../server/defaults.js'
import type { ServerHost } from '../../server/host.js'
import type { RunningServer } from '../../server/start.js'
import { cliLogger, cliContext } from '../context.js'
import { dreamProgressPrinter } from '../dream-progress.js'

/** SIGTERM/SIGINT must end the process within this, even if something hangs. */
const SHUTDOWN_DEADLINE_MS = 4_500

function stopOnSignals(
  dreamlane: Dreamlane,
  say: (line: string) => void,
  closeHttp: () => Promise<void>,
): void {
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    say(`${signal}: stopping — no new work, aborting the running dream`)
    setTimeout(() => {
      say('shutdown deadline reached; exiting')
      process.exit(1)
    }, SHUTDOWN_DEADLINE_MS).unref()
    closeHttp()
      .catch((error: unknown) => say(`closing the web server: ${errorMessage(error)}`))
      .then(() => dreamlane.shutdown())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error)
        process.exit(1)
      })
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

interface ServeOptions {
  stdinChat?: string
  http: boolean
  host: string
  port: number
  token?: string
  fleet?: string
  redis?: string
}

function parsePort(raw: string): number {
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError(`--port expects 0 to 65535, got "${raw}"`)
  return port
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'run continuously: recover from crashes, bootstrap a new workspace, AutoDream nightly, serve the web page and API',
    )
    .option(
      '--stdin-chat <jid>',
      'treat each line on stdin as chat input from <jid> (e.g. "/dream 7") and print replies',
    )
    .option(
      '--host <address>',
      'interface for the web page and API (anything but loopback needs --token)',
      DEFAULT_HOST,
    )
    .option('--port <n>', 'port for the web page and API (0: any free port)', parsePort, DEFAULT_PORT)
    .option('--token <secret>', 'bearer token the web page and API require (env DREAMLANE_TOKEN)')
    .option('--no-http', 'do not start the web page and API')
    .option('--fleet <file>', "also show that fleet's queue (bull-board) at /fleet, behind the same token")
    .option('--redis <url>', "with --fleet: the fleet's Redis (default: as `dreamlane fleet` decides)")
    .action(async (options: ServeOptions, command: Command) => {
      const ctx = await cliContext(command)
      const { checkBinding } = await import('../../server/start.js')
      const { openServerHost } = await import('../../server/host.js')
      const { describeStatus } = await import('../../chat/describe-status.js')
      const say = (line: string) => console.log(line)
      const token = options.token ?? process.env.DREAMLANE_TOKEN ?? null
      // A refused public binding stops here, before recovery or schedules touch anything.
      if (options.http) checkBinding(options.host, token)
      const host = openServerHost({
        config: ctx.config,
        logger: await cliLogger('info'),
        onEvent: dreamProgressPrinter(say),
        onSummary: (s) => say(`[summary → ${s.chatJid}]\n${s.text}`),
      })
      const dreamlane = host.dreamlane
      let server: RunningServer | null = null
      stopOnSignals(dreamlane, say, async () => server?.close())
      const recovered = await dreamlane.recover()
      if (
        recovered.lostRuns.length ||
        recovered.reapedLock ||
        recovered.removedChannels.length ||
        recovered.removedTemps.length
      ) {
        say(
          `recovered: ${recovered.lostRuns.length} run(s) marked lost, lock ${recovered.reapedLock ? 'reaped' : 'clean'}, ${recovered.removedChannels.length} dream channel(s) removed, ${recovered.removedTemps.length} leftover temp file(s) removed`,
        )
      }
      // While nobody chats yet: the dream thread loads what the first dream needs.
      void dreamlane.warmDreams()
      const boot = await dreamlane.bootstrap()
      if (boot) say(`first boot: bootstrap dream ${boot.run.id} queued`)
      dreamlane.startAutoDream()
      say(`dreamlane serving ${ctx.paths.workspace} (pid ${process.pid})`)
      if (options.http) server = await startHttp(host, { ...options, token: token ?? undefined }, say)
      say(describeStatus(await dreamlane.status()))
      if (options.stdinChat) {
        const jid = options.stdinChat
        const lines = createInterface({ input: process.stdin })
        lines.on('line', (line) => {
          void dreamlane
            .handleChatInput(jid, line)
            .then((reply) => say(reply ?? `(not a command: ${line.slice(0, 40)})`))
            // One bad line must not take the server down; a bug still shows its stack.
            .catch((error: unknown) =>
              say(
                error instanceof DreamlaneError
                  ? `dreamlane: ${error.message}`
                  : String((error as Error)?.stack ?? error),
              ),
            )
        })
      }
      // Keep the process alive: schedules use unref'd timers.
      setInterval(() => undefined, 1 << 30)
    })
}

/** A web server that cannot start (port taken, bad address) is reported, not fatal: AutoDream and stdin chat keep running. */
async function startHttp(
  host: ServerHost,
  options: ServeOptions,
  say: (line: string) => void,
): Promise<RunningServer | null> {
  const token = options.token ?? null
  try {
    const { startServer } = await import('../../server/start.js')
    const mounts = options.fleet
      ? [await openFleetMount(host, { ...options, fleet: options.fleet }, say)]
      : []
    const server = await startServer(host, { host: options.host, port: options.port, token, mounts })
    say(`web page and API: ${server.url}${token ? ' (token required: open it once as ?token=<token>)' : ''}`)
    if (mounts.length) say(`fleet queue (bull-board): ${server.url}fleet`)
    return server
  } catch (error) {
    console.error(
      `dreamlane: web page and API not started on ${options.host}:${options.port}: ${errorMessage(error)} (try --port)`,
    )
    return null
  }
}

/** bull-board on the fleet's queue, and the fleet summary of the Dreams page; loaded only with --fleet. */
async function openFleetMount(
  host: ServerHost,
  options: { fleet: string; redis?: string },
  say: (line: string) => void,
) {
  const { loadFleet } = await import('../fleet-context.js')
  const { openDreamQueue } = await import('../../fleet/queue.js')
  const { createFleetBoard, FLEET_BOARD_PATH } = await import('../../fleet/board.js')
  const { readFleetSummary } = await import('../../fleet/summary.js')
  const { registry, redisUrl } = await loadFleet(options)
  const queue = await openDreamQueue(redisUrl, { retry: true })
  host.fleet = { summary: () => readFleetSummary(registry, queue, host.clock) }
  say(`fleet: ${registry.workspaces.length} workspace(s) in ${registry.file}, Redis ${redisUrl}`)
  return { path: FLEET_BOARD_PATH, app: createFleetBoard(queue) }
}
