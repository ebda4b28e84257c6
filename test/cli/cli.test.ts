import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { makeTempDir } from '../helpers/workspace.js'

describe('dreamlane CLI', () => {
  it('prints help listing every command', async () => {
    const result = await runCli(['--help'])
    expect(result.code).toBe(0)
    for (const command of ['init', 'sample', 'seed', 'backups', 'index', 'dream', 'status', 'runs', 'demo']) {
      expect(result.stdout).toContain(command)
    }
  })

  it('names the bad key and exits 3 on a bad config', async () => {
    const dir = makeTempDir()
    mkdirSync(join(dir, '.dreamlane'))
    writeFileSync(join(dir, '.dreamlane', 'config.json'), '{"backups": {"keep": 0}, "timezone": "Nowhere/City"}')
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

    const runs = await runCli([...ws, '--json', 'runs'])
    const [latest] = JSON.parse(runs.stdout) as { id: string; status: string }[]
    expect(latest?.status).toBe('succeeded')
    const show = await runCli([...ws, 'runs', 'show', latest!.id])
    expect(show.stdout).toMatch(/steps:/)
    const missing = await runCli([...ws, 'runs', 'show', 'run-nope'])
    expect(missing.code).toBe(4)

    const restore = await runCli([...ws, '--json', 'backups', 'restore', backupId])
    expect(restore.code).toBe(0)
    expect(JSON.parse(restore.stdout).safetyBackup).toMatch(/restore/)
  }, 120_000)
})
