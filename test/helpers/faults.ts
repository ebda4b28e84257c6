// Fault-test worlds: one sample workspace built once and copied per case, and the checks every fault must pass.
import Database from 'better-sqlite3'
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, type ExpectStatic } from 'vitest'
import { snapshotTree } from '../backup/fixtures.js'
import { runCli, type CliResult } from './cli.js'

/** Every exit code the README documents. */
export const DOCUMENTED_EXIT_CODES = [0, 2, 3, 4, 5, 6, 7, 8, 9]

/** Builds the shared sample workspace once (init, 10 days of sample history, 3 seeded days); returns its folder. */
export async function buildSampleFixture(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'dreamlane-fixture-'))
  for (const args of [['init'], ['sample', '--days', '10'], ['seed', '--days', '3']]) {
    const result = await runCli(['--workspace', dir, ...args])
    if (result.code !== 0) throw new Error(`fixture: ${args.join(' ')} failed: ${result.stderr}`)
  }
  return dir
}

export interface FaultWorld {
  dir: string
  notes: string
  dataDir: string
  messagesDb: string
  lockFile: string
  /** The notes/ tree as it was before the case (base64 per file). */
  before: Record<string, string>
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>
  /** The test's own expect (concurrent tests must not share the global one). */
  expect: ExpectStatic
}

const leftovers: string[] = []

/** Removes every copy made by `copyFixture(…, { keepUntilAll: true })` (for concurrent tests, from afterAll). */
export function removeFaultWorlds(): void {
  for (const dir of leftovers.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/**
 * A private copy of the fixture for one case, removed when the test ends (or, with `keepUntilAll` for
 * concurrent tests, by removeFaultWorlds()).
 */
export function copyFixture(
  fixture: string,
  prepare?: (world: FaultWorld) => void,
  options: { keepUntilAll?: boolean } = {},
): FaultWorld {
  const dir = mkdtempSync(join(tmpdir(), 'dreamlane-fault-'))
  if (options.keepUntilAll) leftovers.push(dir)
  else onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(fixture, dir, { recursive: true })
  const world: FaultWorld = {
    dir,
    notes: join(dir, 'notes'),
    dataDir: join(dir, '.dreamlane'),
    messagesDb: join(dir, '.dreamlane', 'messages.db'),
    lockFile: join(dir, '.dreamlane', 'dream.lock'),
    before: {},
    cli: (args, env = {}) =>
      runCli(['--workspace', dir, ...args], { env: { DREAMLANE_DB_WAIT_MS: '1500', ...env } }),
    expect,
  }
  prepare?.(world)
  world.before = existsSync(world.notes) ? snapshotTree(world.notes) : {}
  return world
}

/**
 * The promises every fault keeps: no stack trace, a documented exit code, no lock left by a dead process,
 * no run left queued or running — and, unless `notesMayChange`, notes byte-identical to before.
 */
export function expectCleanFailure(
  world: FaultWorld,
  result: CliResult,
  options: { code?: number; notesMayChange?: boolean; plantedLock?: boolean } = {},
): void {
  const expect = world.expect
  expect(result.stderr, 'no stack trace').not.toMatch(/\n\s+at .+:\d+:\d+|unexpected error/)
  expect(DOCUMENTED_EXIT_CODES, `exit code ${result.code}: ${result.stderr}`).toContain(result.code)
  if (options.code !== undefined) expect(result.code, result.stderr).toBe(options.code)
  if (!options.notesMayChange && existsSync(world.notes))
    expect(snapshotTree(world.notes)).toEqual(world.before)
  if (!options.plantedLock)
    expect(lockHolderIsDead(world.lockFile), 'no dream.lock left by a dead process').toBe(false)
  expect(unfinishedRuns(world)).toEqual([])
}

/** True when dream.lock exists and names a process that is not running (or cannot be read at all). */
function lockHolderIsDead(file: string): boolean {
  if (!existsSync(file)) return false
  try {
    const { pid } = JSON.parse(readFileSync(file, 'utf8')) as { pid: number }
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}

/** Ids of runs still queued or running in state.db ([] when there is no state.db). */
export function unfinishedRuns(world: Pick<FaultWorld, 'dataDir'>): string[] {
  const file = join(world.dataDir, 'state.db')
  if (!existsSync(file)) return []
  const db = new Database(file, { readonly: true })
  try {
    // A state.db the case itself broke holds no runs at all.
    const table = (() => {
      try {
        return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'runs'").get()
      } catch {
        return undefined
      }
    })()
    if (!table) return []
    return (
      db.prepare("SELECT id FROM runs WHERE status IN ('queued', 'running')").all() as { id: string }[]
    ).map((row) => row.id)
  } finally {
    db.close()
  }
}

/** A second process holding `BEGIN EXCLUSIVE` on `file` (journal mode `journal`) until the test ends. */
export async function holdExclusiveLock(file: string, journal: 'delete' | 'wal'): Promise<ChildProcess> {
  const script = `
    const Database = require('better-sqlite3')
    const db = new Database(process.argv[1])
    db.pragma('journal_mode = ${journal}')
    db.exec('BEGIN EXCLUSIVE')
    db.prepare('SELECT count(*) FROM messages').get()
    process.stdout.write('locked\\n')
    setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] })
  onTestFinished(() => {
    child.kill('SIGKILL')
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve())
    child.once('exit', (code) => reject(new Error(`lock holder exited early (${code})`)))
  })
  return child
}

export function journalModeOf(file: string): string {
  const db = new Database(file, { readonly: true })
  try {
    return String(db.pragma('journal_mode', { simple: true }))
  } finally {
    db.close()
  }
}

export function readText(file: string): string {
  return readFileSync(file, 'utf8')
}
