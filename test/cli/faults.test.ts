import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../src/clock.js'
import { snapshotTree } from '../backup/fixtures.js'
import { openStateDb } from '../../src/db/state.js'
import { RunStore } from '../../src/dream/runs.js'
import {
  buildSampleFixture,
  copyFixture,
  expectCleanFailure,
  holdExclusiveLock,
  journalModeOf,
  unfinishedRuns,
} from '../helpers/faults.js'

const BIN = fileURLToPath(new URL('../../bin/dreamlane.js', import.meta.url))
let fixture = ''
beforeAll(async () => {
  fixture = await buildSampleFixture()
}, 60_000)
afterAll(() => rmSync(fixture, { recursive: true, force: true }))

describe('a messages DB another process holds', () => {
  it.each(['delete', 'wal'] as const)(
    '%s journal under BEGIN EXCLUSIVE: bounded wait with progress, exit 4 naming the holder, journal kept',
    async (journal) => {
      const world = copyFixture(fixture)
      const holder = await holdExclusiveLock(world.messagesDb, journal)
      const started = Date.now()
      const result = await world.cli(['dream', '--days', '2'])
      expect(Date.now() - started).toBeLessThan(15_000)
      expectCleanFailure(world, result, { code: 4 })
      expect(result.stderr).toMatch(/locked by pid \d+.*waiting \(1 s\)/)
      expect(result.stderr).toContain(`pid ${holder.pid}`)
      holder.kill('SIGKILL')
      expect(journalModeOf(world.messagesDb)).toBe(journal)
    },
  )

  it("leaves a host's DELETE-journal DB in DELETE mode and its schema as it was", async () => {
    const world = copyFixture(fixture)
    const db = new Database(world.messagesDb)
    db.pragma('journal_mode = DELETE')
    db.exec('DROP INDEX IF EXISTS idx_messages_timestamp')
    db.pragma('application_id = 0')
    const schema = db.prepare('SELECT sql FROM sqlite_master ORDER BY name').all()
    db.close()
    for (const args of [['status'], ['dream', '--days', '2'], ['runs']]) {
      expectCleanFailure(world, await world.cli(args), { code: 0, notesMayChange: true })
    }
    expect(journalModeOf(world.messagesDb)).toBe('delete')
    const after = new Database(world.messagesDb, { readonly: true })
    expect(after.prepare('SELECT sql FROM sqlite_master ORDER BY name').all()).toEqual(schema)
    after.close()
  })
})

describe('a closed output pipe', () => {
  it('does not kill the dream: the run closes and the lock is released', async () => {
    const world = copyFixture(fixture)
    const child = spawn(process.execPath, [BIN, '--workspace', world.dir, 'dream', '--days', '2'], {
      env: { PATH: process.env.PATH ?? '', TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    // The reader goes away before the dream prints anything, like `| head -0`.
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expectCleanFailure(world, { code, stdout: '', stderr }, { code: 0, notesMayChange: true })
    expect(stderr).toMatch(/dream run-\S+ succeeded/)
    expect(unfinishedRuns(world)).toEqual([])
  })
})

describe('a second `dreamlane dream` while one runs elsewhere', () => {
  it('says which run it joined, waits for it, and exits with its outcome', async () => {
    const world = copyFixture(fixture)
    // The "other process" is this test: a running run in state.db and a live lock naming this pid.
    const state = openStateDb(join(world.dataDir, 'state.db'))
    const runs = new RunStore(state, systemClock, 'UTC')
    const other = runs.open({ mode: 'manual', chatJid: 'web:main', days: 2 })
    runs.markRunning(other.id)
    writeFileSync(
      world.lockFile,
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        runId: other.id,
        startedAt: new Date().toISOString(),
      }),
    )
    const joined = world.cli(['dream', '--days', '2'])
    await new Promise((resolve) => setTimeout(resolve, 2500))
    runs.close(other.id, { status: 'failed', gate: 'triggered', reason: 'boom', summary: 'It failed.' })
    rmSync(world.lockFile)
    state.close()
    const result = await joined
    expectCleanFailure(world, result, { code: 7 })
    expect(result.stderr).toContain(`joined dream ${other.id}`)
    expect(result.stdout).toContain('It failed.')
  })
})

describe('what a new user sees', () => {
  it('a gate skip under --auto exits 0, and a dry run with nothing to do says so', async () => {
    const world = copyFixture(fixture)
    expectCleanFailure(world, await world.cli(['dream', '--days', '2']), { code: 0, notesMayChange: true })
    const auto = await world.cli(['dream', '--auto'])
    expect(auto.code, auto.stderr).toBe(0)
    expect(auto.stderr).toMatch(/skipped: /)
    const dry = await world.cli(['dream', '--days', '2', '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toMatch(/A real run would change nothing/)
    expect(dry.stdout).not.toMatch(/would keep these changes/)
  })
})

describe('dreamlane gate', () => {
  it('names the sessions threshold and the signal count, for AutoDream and for a sweep', async () => {
    const world = copyFixture(fixture)
    expect((await world.cli(['dream', '--auto'])).code).toBe(0)
    const auto = await world.cli(['gate'])
    expect(auto.code, auto.stderr).toBe(0)
    expect(auto.stdout).toMatch(/^(time|sessions|triggered): /)
    const json = JSON.parse((await world.cli(['gate', '--json'])).stdout)
    expect(json.outcome).toBe('time')
    const deep = await world.cli(['gate', '--mode', 'deep'])
    expect(deep.stdout).toMatch(
      /^signal: 0 new recall event\(s\) so far, fewer than 1\n  signal: 0 new recall event\(s\) since the start \(minimum 1\)/,
    )
    const bad = await world.cli(['gate', '--mode', 'nightly'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/auto, manual, bootstrap, light, deep or rem/)
  })
})

describe('a dream killed (kill -9) at each step', () => {
  const FAULTS = fileURLToPath(new URL('../helpers/inject-faults.mjs', import.meta.url))
  it.for([
    ['taking the lock', 'dream.lock'],
    ['backing up', '/backups/'],
    ['seeding', '/notes/daily/'],
    ['consolidating', '/notes/memory/'],
  ] as const)('%s: the next dream reaps the lock, marks the run lost and finishes', async ([, at]) => {
    const world = copyFixture(fixture, (w) => {
      for (const name of readdirSync(join(w.notes, 'daily'))) rmSync(join(w.notes, 'daily', name))
    })
    const killed = await world.cli(['dream', '--days', '2'], {
      NODE_OPTIONS: `--import=${FAULTS}`,
      DREAMLANE_TEST_KILL_AT: at,
    })
    expect(killed.code).toBeNull()
    const [left] = unfinishedRuns(world)
    expect(left).toBeDefined()

    const next = await world.cli(['dream', '--days', '2'])
    expectCleanFailure(world, next, { code: 0, notesMayChange: true })
    const state = new Database(join(world.dataDir, 'state.db'), { readonly: true })
    const killedRun = state.prepare('SELECT status FROM runs WHERE id = ?').get(left) as { status: string }
    state.close()
    expect(killedRun.status).toBe('lost')
    const temps = readdirSync(world.notes, { recursive: true }).filter((name) =>
      String(name).endsWith('.tmp'),
    )
    expect(temps).toEqual([])
  })
})

describe('a dream stopped by a signal', () => {
  it('SIGTERM mid-dream cancels it: run closed, notes put back, lock released, exit 7', async () => {
    const world = copyFixture(fixture)
    const FAULTS = fileURLToPath(new URL('../helpers/inject-faults.mjs', import.meta.url))
    const child = spawn(process.execPath, [BIN, '--workspace', world.dir, 'dream', '--days', '2'], {
      env: {
        PATH: process.env.PATH ?? '',
        TZ: 'UTC',
        NODE_OPTIONS: `--import=${FAULTS}`,
        DREAMLANE_TEST_SLOW_AT: '/notes/memory/',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    let isStopping = false
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      // Seeding is done and the model turn is about to write memory (slowly): stop it there, with one TERM
      // (a second one kills at once, by design).
      if (/seed daily notes/.test(stderr) && !isStopping) {
        isStopping = true
        setTimeout(() => child.kill('SIGTERM'), 300)
      }
    })
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expectCleanFailure(world, { code, stdout: '', stderr }, { code: 7 })
    expect(stderr).toMatch(/stopping: cancelling the dream[\s\S]*cancelled/)
  })
})

describe('a restore killed (kill -9) half-way', () => {
  it('leaves a trace doctor names with the fix, and running it again finishes it', async () => {
    const world = copyFixture(fixture)
    const FAULTS = fileURLToPath(new URL('../helpers/inject-faults.mjs', import.meta.url))
    const created = await world.cli(['--json', 'backups', 'create'])
    const { id } = JSON.parse(created.stdout) as { id: string }
    const backedUp = snapshotTree(world.notes)
    for (const name of ['user.md', 'project.md'])
      writeFileSync(join(world.notes, 'memory', name), `edited after the backup: ${name}\n`)

    const killed = await world.cli(['backups', 'restore', id], {
      NODE_OPTIONS: `--import=${FAULTS}`,
      DREAMLANE_TEST_KILL_AT: '/notes/memory/',
    })
    expect(killed.code).toBeNull()
    const status = await world.cli(['status'])
    expect(status.stdout).toContain(`Interrupted restore: run restore-${id}`)
    const doctor = await world.cli(['doctor'])
    expect(doctor.code).toBe(9)
    expect(doctor.stdout).toContain(`a restore of backup ${id} was interrupted`)

    const again = await world.cli(['backups', 'restore', id])
    expect(again.code, again.stderr).toBe(0)
    expect(snapshotTree(world.notes)).toEqual(backedUp)
    expect((await world.cli(['doctor'])).code).toBe(0)
  })
})
