// The commander program: every command registered (or only the one that runs), parsed, errors reported.
import { Command, CommanderError } from './commander.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../notes/paths.js'
import { UsageError } from '../errors.js'
import { EXIT, reportError } from './exit-codes.js'

type Register = (program: InstanceType<typeof Command>) => void

/** Every top-level command and where it is registered, in the order `--help` lists them. */
const COMMANDS: Record<string, () => Promise<Register>> = {
  init: async () => (await import('./commands/init.js')).registerInit,
  sample: async () => (await import('./commands/sample.js')).registerSample,
  seed: async () => (await import('./commands/seed.js')).registerSeed,
  backups: async () => (await import('./commands/backups.js')).registerBackups,
  index: async () => (await import('./commands/index-cmd.js')).registerIndex,
  dream: async () => (await import('./commands/dream.js')).registerDream,
  gate: async () => (await import('./commands/dream.js')).registerGate,
  status: async () => (await import('./commands/status.js')).registerStatus,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  runs: async () => (await import('./commands/runs.js')).registerRuns,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  demo: async () => (await import('./commands/demo.js')).registerDemo,
  import: async () => (await import('./commands/import.js')).registerImport,
  memory: async () => (await import('./commands/memory.js')).registerMemory,
  forget: async () => (await import('./commands/forget.js')).registerForget,
  mcp: async () => (await import('./commands/mcp.js')).registerMcp,
  chat: async () => (await import('./commands/chat.js')).registerChat,
  fleet: async () => (await import('./commands/fleet.js')).registerFleet,
  worker: async () => (await import('./commands/worker.js')).registerWorker,
}

/** The global options above that take a value (the next argument, unless written `--opt=value` or `-wdir`). */
const GLOBAL_WITH_VALUE = new Set(['-w', '--workspace', '--data-dir', '--messages-db', '--tz'])
const GLOBAL_FLAGS = new Set(['--json'])

/**
 * The command `args` run, when it is certain: skips the global options before it. Anything else (no
 * command, --help, --version, an unknown option or command) is null, and every command is registered.
 */
function commandOf(args: string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') return args[i + 1] ?? null
    if (GLOBAL_WITH_VALUE.has(arg)) i++
    else if (GLOBAL_FLAGS.has(arg)) continue
    else if (arg.startsWith('-')) {
      const isGlobalWithValue = [...GLOBAL_WITH_VALUE].some((name) =>
        name.startsWith('--') ? arg.startsWith(`${name}=`) : arg.startsWith(name) && arg.length > 2,
      )
      if (!isGlobalWithValue) return null
    } else return arg
  }
  return null
}

/** Only the command that runs is imported (each module's imports cost start-up time); help and errors see all. */
async function registrationsFor(args: string[]): Promise<Register[]> {
  const name = commandOf(args)
  const wanted = name !== null && Object.hasOwn(COMMANDS, name) ? [name] : Object.keys(COMMANDS)
  return Promise.all(wanted.map((command) => (COMMANDS[command] as () => Promise<Register>)()))
}

/** Parses `argv` (all of process.argv) with commander and runs the command; sets the exit code. */
export async function runProgram(argv: string[], wantsJson: boolean): Promise<void> {
  const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string
  }
  const program = new Command('dreamlane')
    .description(
      "Keeps a chat assistant's long-term memory healthy: dreams consolidate chat history into markdown notes.",
    )
    .version(version)
    .option('-w, --workspace <dir>', 'workspace with notes/ (env DREAMLANE_WORKSPACE; default: current dir)')
    .option('--data-dir <dir>', 'data dir (config.json, state.db, backups; default <workspace>/.dreamlane)')
    .option('--messages-db <file>', 'messages DB to read (default <data-dir>/messages.db)')
    .option('--tz <zone>', 'IANA time zone for day boundaries (default: config, then TZ, then system)')
    .option('--json', 'machine-readable output on stdout')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    // Set before the subcommands are added, so they inherit it: with --json a usage error is JSON on stdout.
    .configureOutput({ outputError: (text, write) => (wantsJson ? undefined : write(text)) })

  for (const register of await registrationsFor(argv.slice(2))) register(program)

  try {
    await program.parseAsync(argv)
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage
      if (error.exitCode !== 0 && wantsJson)
        reportError(new UsageError(error.message.replace(/^error: /, '')), true)
    } else {
      process.exitCode = reportError(error, wantsJson)
    }
  }
}
