// The dreamlane CLI: the only module with top-level side effects (argv, exit code).
import { Command, CommanderError } from 'commander'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../notes/paths.js'
import { registerBackups } from './commands/backups.js'
import { registerChat } from './commands/chat.js'
import { registerDemo } from './commands/demo.js'
import { registerDoctor } from './commands/doctor.js'
import { registerDream, registerGate } from './commands/dream.js'
import { registerFleet } from './commands/fleet.js'
import { registerImport } from './commands/import.js'
import { registerIndex } from './commands/index-cmd.js'
import { registerInit } from './commands/init.js'
import { registerMcp } from './commands/mcp.js'
import { registerMemory } from './commands/memory.js'
import { registerRuns } from './commands/runs.js'
import { registerSample } from './commands/sample.js'
import { registerSeed } from './commands/seed.js'
import { registerServe } from './commands/serve.js'
import { registerStatus } from './commands/status.js'
import { registerWorker } from './commands/worker.js'
import { UsageError } from '../errors.js'
import { EXIT, reportError } from './exit-codes.js'

const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string
}

const wantsJson = process.argv.includes('--json')

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

for (const register of [
  registerInit,
  registerSample,
  registerSeed,
  registerBackups,
  registerIndex,
  registerDream,
  registerGate,
  registerStatus,
  registerDoctor,
  registerRuns,
  registerServe,
  registerDemo,
  registerImport,
  registerMemory,
  registerMcp,
  registerChat,
  registerFleet,
  registerWorker,
]) {
  register(program)
}

// A reader that went away (`dreamlane dream | head -3`) must not kill a dream half-way: the rest of the
// output is dropped and the run still closes and releases its lock.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
}

try {
  await program.parseAsync(process.argv)
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage
    if (error.exitCode !== 0 && wantsJson)
      reportError(new UsageError(error.message.replace(/^error: /, '')), true)
  } else {
    process.exitCode = reportError(error, wantsJson)
  }
}
