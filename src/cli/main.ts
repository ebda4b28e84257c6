// The dreamlane CLI: the only module with top-level side effects (argv, exit code).
import type { GlobalOptions } from './context.js'
import { plainInvocation } from './plain-args.js'
import { ignoreClosedReaders } from './std-streams.js'

type RunCommand = (options: GlobalOptions) => Promise<void>

/**
 * Commands run without commander when their arguments are only global options (`plain-args.ts`). They print
 * their result through `printLine` and create process.stdout/stderr only to report an error.
 */
const PLAIN_COMMANDS: Record<string, () => Promise<RunCommand>> = {
  status: async () => (await import('./commands/status.js')).runStatus,
  'backups create': async () => {
    // Its pack thread starts before the command's modules load: it takes ~30 ms to start, and should be ready first.
    const thread = (await import('../backup/pack-thread.js')).startPackThread()
    const { runBackupsCreate } = await import('./commands/backups.js')
    return (options) => runBackupsCreate(options, thread)
  },
}

const wantsJson = process.argv.includes('--json')

const plain = plainInvocation(process.argv.slice(2), new Set(Object.keys(PLAIN_COMMANDS)))
if (plain) {
  try {
    const run = await (PLAIN_COMMANDS[plain.command] as () => Promise<RunCommand>)()
    await run(plain.options)
  } catch (error) {
    ignoreClosedReaders()
    const { reportError } = await import('./exit-codes.js')
    process.exitCode = reportError(error, wantsJson)
  }
} else {
  ignoreClosedReaders()
  const { runProgram } = await import('./program.js')
  await runProgram(process.argv, wantsJson)
}
