import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
