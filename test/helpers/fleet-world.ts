// A fleet on disk for worker tests: small workspaces with recent history, a registry, real worker processes.
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { onTestFinished } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import type { ConfigFile, ResolvedConfig } from '../../src/config/schema.js'
import { initWorkspace } from '../../src/notes/init-workspace.js'
import { workspacePaths, type WorkspacePaths } from '../../src/notes/paths.js'
import { makeMessagesDb, makeTempDir } from './workspace.js'

const BIN = fileURLToPath(new URL('../../bin/dreamlane.js', import.meta.url))

export interface FleetWorldWorkspace {
  id: string
  config: ResolvedConfig
  paths: WorkspacePaths
}

export interface FleetWorld {
  dir: string
  file: string
  workspaces: FleetWorldWorkspace[]
}

const LINES = [
  'I moved to Porto last month and I love it.',
  'We decided to use Postgres for the Atlas project.',
  'My sister Ana visits on the 14th.',
  'Remind me that the Atlas launch slipped to March.',
]

/**
 * `count` workspaces named ws-00…, each with a few messages 20 h and 3 h before `now` (inside every zone's
 * two-day auto window), their own `settings` (say a zone), and a fleet.json listing them.
 */
export async function makeFleetWorld(
  count: number,
  redisUrl: string,
  options: { now?: Date; settings?: (index: number) => ConfigFile } = {},
): Promise<FleetWorld> {
  const dir = makeTempDir('dreamlane-fleet-')
  const now = options.now ?? new Date()
  const workspaces: FleetWorldWorkspace[] = []
  for (let index = 0; index < count; index++) {
    const id = `ws-${String(index).padStart(2, '0')}`
    const workspace = join(dir, id)
    const settings = { timezone: 'UTC', ...options.settings?.(index) }
    const config = resolveConfig({ env: {}, flags: { workspace } })
    const paths = workspacePaths(config)
    await initWorkspace(paths)
    writeFileSync(paths.dataDir + '/config.json', JSON.stringify(settings))
    const at = (hoursAgo: number, seconds = 0) =>
      new Date(now.getTime() - hoursAgo * 3_600_000 + seconds * 1000).toISOString()
    makeMessagesDb(paths, [
      { chatJid: 'web:main', content: LINES[index % LINES.length] as string, timestamp: at(20) },
      { chatJid: 'web:main', content: 'Noted.', timestamp: at(20, 5), isBotMessage: true },
      { chatJid: 'web:main', content: LINES[(index + 1) % LINES.length] as string, timestamp: at(3) },
      { chatJid: 'web:main', content: 'Got it.', timestamp: at(3, 5), isBotMessage: true },
    ]).close()
    workspaces.push({ id, config: resolveConfig({ env: {}, flags: { workspace } }), paths })
  }
  const file = join(dir, 'fleet.json')
  writeFileSync(file, JSON.stringify({ globs: ['ws-*'], redis: redisUrl }))
  return { dir, file, workspaces }
}

export interface WorkerProcess {
  child: ChildProcess
  /** Everything it wrote to stderr so far (its JSON log lines). */
  output(): string
  /** Resolves when the process has exited. */
  exited: Promise<void>
}

/** Starts `dreamlane worker` on the fleet; killed (SIGKILL) when the test ends if still running. */
export function startWorkerProcess(
  world: FleetWorld,
  args: string[] = [],
  env: Record<string, string> = {},
): WorkerProcess {
  return startFleetProcess(world, ['worker', '--fleet', world.file, ...args], env)
}

/** Starts a long-running `dreamlane <args>` in the fleet's directory (a worker, `fleet run`), as above. */
export function startFleetProcess(
  world: FleetWorld,
  args: string[],
  env: Record<string, string> = {},
): WorkerProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: world.dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await exited
    }
  })
  return { child, output: () => stderr, exited }
}

/** Polls `check` until it returns a value (not undefined), or fails after `timeoutMs` saying what it waited for. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(200)
  }
}
