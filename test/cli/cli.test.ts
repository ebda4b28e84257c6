import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { makeTempDir } from '../helpers/workspace.js'

describe('dreamlane CLI', () => {
  it('prints help listing every command', async () => {
    const result = await runCli(['--help'])
    expect(result.code).toBe(0)
    for (const command of [
      'init',
      'sample',
      'seed',
      'backups',
      'index',
      'dream',
      'status',
      'runs',
      'demo',
      'mcp',
    ]) {
      expect(result.stdout).toContain(command)
    }
  })

  it('runs a command after global options in each spelling, and its help is the same as with every command loaded', async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    const spellings = [
      ['--workspace', dir, 'status', '--json'],
      ['-w', dir, '--json', 'status'],
      [`-w${dir}`, '--json', 'status'],
      [`--workspace=${dir}`, '--tz', 'UTC', '--json', 'status'],
      ['--json', '--workspace', dir, '--', 'status'],
    ]
    for (const args of spellings) {
      const result = await runCli(args)
      expect(result.code, args.join(' ')).toBe(0)
      expect(JSON.parse(result.stdout).workspace).toBe(dir)
    }
    // `help status` names no command first, so every command is registered before commander answers.
    const own = await runCli(['status', '--help'])
    const viaHelp = await runCli(['help', 'status'])
    expect(own.stdout).toContain('Usage: dreamlane status')
    expect(own.stdout).toBe(viaHelp.stdout)
    const unknown = await runCli(['--workspace', dir, 'statsu'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown command 'statsu'")
    expect(unknown.stderr).toContain('status')
  })

  it('names the bad key and exits 3 on a bad config', async () => {
    const dir = makeTempDir()
    mkdirSync(join(dir, '.dreamlane'))
    writeFileSync(
      join(dir, '.dreamlane', 'config.json'),
      '{"backups": {"keep": 0}, "timezone": "Nowhere/City"}',
    )
    const result = await runCli(['--workspace', dir, 'status'])
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/backups\.keep: expected an integer ≥ 1/)
    expect(result.stderr).toMatch(/timezone: expected an IANA time zone/)
  })

  it('says clearly when the messages DB is missing (exit 4), also as JSON', async () => {
    const dir = makeTempDir()
    const text = await runCli(['--workspace', dir, 'seed', '--days', '3'])
    expect(text.code).toBe(4)
    expect(text.stderr).toMatch(/messages database not found at .*messages\.db/)
    const json = await runCli(['--workspace', dir, '--json', 'seed'])
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'MESSAGES_DB_MISSING' } })
  })

  it('rejects a bad --days with usage exit 2', async () => {
    const result = await runCli(['seed', '--days', 'lots'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--days expects an integer/)
  })

  it('caps a seed window at dream.maxDays and says so, instead of building a window of millennia', async () => {
    const dir = makeTempDir()
    const ws = ['--workspace', dir]
    expect((await runCli([...ws, 'init'])).code).toBe(0)
    writeFileSync(join(dir, '.dreamlane', 'config.json'), '{"dream": {"maxDays": 30, "defaultDays": 7}}')
    expect((await runCli([...ws, 'sample', '--force'])).code).toBe(0)
    const seed = await runCli([...ws, 'seed', '--days', '99999999'], { timeoutMs: 30_000 })
    expect(seed.code).toBe(0)
    expect(seed.stderr).toMatch(/--days 99999999 is more than dream\.maxDays \(30\); using the last 30 days/)
    expect(seed.stderr).toMatch(/seeding \d{4}-\d\d-\d\d \.\. \d{4}-\d\d-\d\d/)
  })

  it('init → sample → seed → backups → index search → dream → runs, on a real workspace', async () => {
    const dir = makeTempDir()
    const ws = ['--workspace', dir]
    expect((await runCli([...ws, 'init'])).code).toBe(0)
    expect(existsSync(join(dir, 'notes', 'memory', 'MEMORY.md'))).toBe(true)
    const sample = await runCli([...ws, '--json', 'sample', '--force'])
    expect(sample.code).toBe(0)
    expect(JSON.parse(sample.stdout).messages).toBeGreaterThan(100)

    const seed = await runCli([...ws, '--json', 'seed', '--days', '3'])
    expect(seed.code).toBe(0)
    const seeded = JSON.parse(seed.stdout) as { days: { path: string; outcome: string }[] }
    expect(seeded.days.length).toBeGreaterThan(0)
    expect(readFileSync(join(dir, seeded.days[0]!.path), 'utf8')).toContain('<!-- DREAM_CUES')

    const backup = await runCli([...ws, '--json', 'backups', 'create'])
    const backupId = JSON.parse(backup.stdout).id as string
    const list = await runCli([...ws, '--json', 'backups', 'list'])
    expect((JSON.parse(list.stdout) as { id: string }[]).map((b) => b.id)).toContain(backupId)

    const search = await runCli([...ws, '--json', 'index', 'search', 'DREAM_CUES'])
    expect(search.code).toBe(0)
    expect((JSON.parse(search.stdout) as { path: string }[]).length).toBeGreaterThan(0)

    const dream = await runCli([...ws, 'dream', '--days', '3'])
    expect(dream.code).toBe(0)
    expect(dream.stderr).toMatch(/✓ back up notes/)
    expect(dream.stdout).toMatch(/Dream finished/)

    const status = await runCli([...ws, 'status'])
    expect(status.code).toBe(0)
    expect(status.stdout).toMatch(/Latest dream: run-\S+ — succeeded, manual, last 3 day\(s\)/)
    expect(status.stdout).toMatch(/AutoDream: on, next \d{4}-\d{2}-\d{2} 01:00 UTC/)
    expect(status.stdout).toMatch(/Daily notes needing a summary: \d+/)
    expect(status.stdout).toMatch(/Engine: offline — no ANTHROPIC_API_KEY/)

    const runs = await runCli([...ws, '--json', 'runs'])
    const [latest] = JSON.parse(runs.stdout) as { id: string; status: string }[]
    expect(latest?.status).toBe('succeeded')
    const show = await runCli([...ws, 'runs', 'show', latest!.id])
    expect(show.stdout).toMatch(/steps:/)
    expect(show.stdout).toMatch(
      /usage: 0 fresh input, 0 cache read, 0 cache write, 0 output tokens in 0 request\(s\)/,
    )
    const missing = await runCli([...ws, 'runs', 'show', 'run-nope'])
    expect(missing.code).toBe(4)

    const restore = await runCli([...ws, '--json', 'backups', 'restore', backupId])
    expect(restore.code).toBe(0)
    expect(JSON.parse(restore.stdout).safetyBackup).toMatch(/restore/)
  }, 120_000)
})

describe('dreamlane demo', () => {
  it('builds a sample workspace, dreams over it offline, and a second demo run changes nothing', async () => {
    const dir = join(makeTempDir(), 'demo')
    const first = await runCli(['demo', '--dir', dir], { timeoutMs: 120_000 })
    expect(first.code).toBe(0)
    for (const step of [
      'back up notes',
      'seed daily notes',
      'model turn',
      'index pass',
      'refresh search index',
      'remove dream channel',
    ]) {
      expect(first.stdout).toContain(`✓ ${step}`)
    }
    expect(first.stdout).toMatch(
      /you › \/dream 7\ndreamlane › Dream queued in the background for the last 7 day\(s\)\./,
    )
    expect(first.stdout).toMatch(/Dream finished \(manual, last 7 day\(s\)/)
    expect(first.stdout).toMatch(/changed notes\/memory\/user\.md/)
    const memory = readFileSync(join(dir, 'notes', 'memory', 'user.md'), 'utf8')
    expect(memory).toMatch(/Porto/)
    // The closing hint works as typed in a clone (there is no global `dreamlane`).
    expect(first.stdout).toMatch(/\n {14}npx dreamlane --workspace \S+ runs show run-/)

    const second = await runCli(['demo', '--dir', dir], { timeoutMs: 120_000 })
    expect(second.code).toBe(0)
    expect(second.stdout).toContain('reusing the previous demo')
    expect(second.stdout).toContain('No files changed.')
    expect(readFileSync(join(dir, 'notes', 'memory', 'user.md'), 'utf8')).toBe(memory)
  }, 240_000)

  it('refuses to reuse a directory that is not a demo workspace', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'precious.txt'), 'do not touch')
    const result = await runCli(['demo', '--dir', dir])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/not a dreamlane demo workspace/)
    expect(readFileSync(join(dir, 'precious.txt'), 'utf8')).toBe('do not touch')
  })
})

describe('npm run demo', () => {
  it('skips the build when dist/ is up to date, and says so (global-setup just built it)', () => {
    const script = fileURLToPath(new URL('../../scripts/build-if-stale.mjs', import.meta.url))
    const result = spawnSync(process.execPath, [script], { encoding: 'utf8' })
    expect(result.status).toBe(0)
    expect(result.stderr).toMatch(/dist\/ is up to date .*skipping the build/)
  })
})
