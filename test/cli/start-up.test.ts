// Each command loads only what it runs: the NLP libraries, the Anthropic SDK and undici (the model requests' fetch)
// stay out of commands that never dream.
import { writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { makeTempDir } from '../helpers/workspace.js'

const TRACE = fileURLToPath(new URL('../helpers/trace-modules.mjs', import.meta.url))
const HEAVY = ['compromise', 'chrono-node', '@anthropic-ai/sdk', 'undici'] as const
/** What only a dream, a review action or a backup needs: zip writing and reading, diffs. */
const DREAM_ONLY = ['archiver', 'yauzl', 'diff'] as const
/** What only the fleet commands (`fleet`, `worker`) need: a single workspace never talks to Redis. */
const FLEET_ONLY = ['bullmq', 'ioredis'] as const

/** The packages under node_modules a CLI run loaded, by name. */
async function packagesLoadedBy(
  args: string[],
  env: Record<string, string> = {},
  input?: string,
): Promise<Set<string>> {
  const urls = await modulesLoadedBy(args, env, input)
  const names = urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
  return new Set(names.filter((name) => name !== undefined))
}

/** The URL of every module a CLI run loaded (repeated as often as it was resolved). */
async function modulesLoadedBy(
  args: string[],
  env: Record<string, string> = {},
  input?: string,
): Promise<string[]> {
  const log = join(makeTempDir(), 'modules.log')
  const result = await runCli(args, {
    nodeArgs: ['--import', TRACE],
    env: { DREAMLANE_TEST_MODULE_LOG: log, ...env },
    timeoutMs: 120_000,
    ...(input === undefined ? {} : { input }),
  })
  if (input !== undefined) expect(result.stdout).toContain('"serverInfo"')
  expect(result.stderr).not.toMatch(/Error/)
  return (await readFile(log, 'utf8')).split('\n')
}

describe('start-up', () => {
  it('--help loads commander and no other library: each command imports its work when it runs', async () => {
    const loaded = await packagesLoadedBy(['--help'])
    expect([...loaded]).toEqual(['commander'])
  })

  it('status loads none of them nor what only a dream needs, also when the Anthropic provider is selected', async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    const envs: Record<string, string>[] = [{}, { ANTHROPIC_API_KEY: 'sk-test' }]
    for (const env of envs) {
      const loaded = await packagesLoadedBy(['--workspace', dir, 'status'], env)
      expect(loaded.has('better-sqlite3')).toBe(true)
      for (const name of [...HEAVY, ...DREAM_ONLY, ...FLEET_ONLY]) expect(loaded.has(name), name).toBe(false)
    }
  })

  it('status checks the settings with zod once: later runs with the same settings load neither zod, pino nor commander', async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    expect([...(await packagesLoadedBy(['--workspace', dir, 'status']))]).toContain('zod')
    const loaded = await packagesLoadedBy(['--workspace', dir, 'status'])
    expect([...loaded].sort()).toEqual(['better-sqlite3', 'croner'])
    writeFileSync(join(dir, '.dreamlane', 'config.json'), '{"backups": {"keep": 0}}')
    const refused = await runCli(['--workspace', dir, 'status'])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('backups.keep')
  })

  it("status loads a dozen of dreamlane's own modules: what it reads and prints is one bundled module", async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    await runCli(['--workspace', dir, 'status']) // the first run after init checks the settings with zod
    const own = new Set(
      (await modulesLoadedBy(['--workspace', dir, 'status'])).filter((url) => url.includes('/dist/')),
    )
    expect([...own].some((url) => url.endsWith('/dist/cli/status-deps.js'))).toBe(true)
    for (const url of own)
      expect(url).not.toMatch(/\/dist\/(read-only|app\/status|db\/state|recall\/status)\.js$/)
    expect(own.size).toBeLessThanOrEqual(15)
  })

  it('backups create loads no package and about fifteen of its own modules: archiver and the backup code are one bundle', async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    await runCli(['--workspace', dir, 'status']) // the first run after init checks the settings with zod
    const args = ['--workspace', dir, 'backups', 'create']
    expect([...(await packagesLoadedBy(args))]).toEqual([])
    const own = new Set((await modulesLoadedBy(args)).filter((url) => url.includes('/dist/')))
    expect([...own].some((url) => url.endsWith('/dist/cli/backup-create-deps.js'))).toBe(true)
    // Only the pack thread's modules load on their own: the thread starts before the bundle loads.
    const backupModules = [...own]
      .filter((url) => /\/dist\/backup\//.test(url))
      .map((url) => url.split('/dist/')[1])
    expect(backupModules.sort()).toEqual([
      'backup/deflate-into.js',
      'backup/pack-thread.js',
      'backup/pack-worker.js',
    ])
    expect(own.size).toBeLessThanOrEqual(18)
    const listed = JSON.parse(
      (await runCli(['--workspace', dir, '--json', 'backups', 'list'])).stdout,
    ) as unknown[]
    expect(listed).toHaveLength(2)
  })

  it('a dream with the offline engine loads the NLP libraries, and still not the SDK nor undici', async () => {
    const dir = makeTempDir()
    const ws = ['--workspace', dir]
    expect((await runCli([...ws, 'init'])).code).toBe(0)
    expect((await runCli([...ws, 'sample', '--force'])).code).toBe(0)
    const loaded = await packagesLoadedBy([...ws, 'dream', '--days', '2'])
    expect(loaded.has('compromise')).toBe(true)
    expect(loaded.has('chrono-node')).toBe(true)
    expect(loaded.has('@anthropic-ai/sdk')).toBe(false)
    expect(loaded.has('undici')).toBe(false)
    for (const name of FLEET_ONLY) expect(loaded.has(name), name).toBe(false)
  })

  it('mcp answers the handshake with the SDK alone: no database, note parser or dream library loaded', async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    })
    const loaded = await packagesLoadedBy(['--workspace', dir, 'mcp'], {}, `${initialize}\n`)
    expect(loaded.has('@modelcontextprotocol/sdk')).toBe(true)
    for (const name of ['better-sqlite3', 'gray-matter', 'pino', ...HEAVY, ...DREAM_ONLY, ...FLEET_ONLY])
      expect(loaded.has(name), name).toBe(false)
  })
})
