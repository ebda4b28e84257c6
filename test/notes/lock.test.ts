import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { fixedClock } from '../../src/clock.js'
import { acquireLock, reapStaleLock } from '../../src/notes/lock.js'
import { LockHeldError } from '../../src/errors.js'
import { makeTempDir } from '../helpers/workspace.js'

const HOUR = 3_600_000

function deadPid(): number {
  // A child that has exited: its pid is (almost certainly) not reused within the test.
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(child.stdout.toString())
}

describe('workspace lock', () => {
  it('writes pid, host, run id and start, and releases only its own lock', async () => {
    const file = join(makeTempDir(), 'dream.lock')
    const clock = fixedClock('2026-11-21T01:00:00Z')
    const lock = await acquireLock({ file, runId: 'run-a', clock, staleAfterMs: HOUR })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
      runId: 'run-a',
      startedAt: '2026-11-21T01:00:00.000Z',
    })
    await expect(acquireLock({ file, runId: 'run-b', clock, staleAfterMs: HOUR })).rejects.toThrow(
      LockHeldError,
    )
    await expect(acquireLock({ file, runId: 'run-b', clock, staleAfterMs: HOUR })).rejects.toThrow(
      /run-a \(pid/,
    )
    await lock.release()
    expect(existsSync(file)).toBe(false)
  })

  it('reaps a lock whose pid is dead and takes it', async () => {
    const file = join(makeTempDir(), 'dream.lock')
    const clock = fixedClock('2026-11-21T01:00:00Z')
    writeFileSync(
      file,
      JSON.stringify({
        pid: deadPid(),
        host: hostname(),
        runId: 'old',
        startedAt: '2026-11-21T00:59:00.000Z',
      }),
    )
    const lock = await acquireLock({ file, runId: 'new', clock, staleAfterMs: HOUR })
    expect(lock.reaped?.runId).toBe('old')
    expect(JSON.parse(readFileSync(file, 'utf8')).runId).toBe('new')
  })

  it('reaps a lock older than the run timeout even when its pid lives', async () => {
    const file = join(makeTempDir(), 'dream.lock')
    const clock = fixedClock('2026-11-21T03:00:00Z')
    writeFileSync(
      file,
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        runId: 'old',
        startedAt: '2026-11-21T01:00:00.000Z',
      }),
    )
    expect((await reapStaleLock({ file, clock, staleAfterMs: HOUR }))?.runId).toBe('old')
    expect(existsSync(file)).toBe(false)
  })

  it('keeps a live lock and treats a garbage lock file as stale', async () => {
    const file = join(makeTempDir(), 'dream.lock')
    const clock = fixedClock('2026-11-21T01:00:00Z')
    writeFileSync(
      file,
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        runId: 'live',
        startedAt: '2026-11-21T00:59:00.000Z',
      }),
    )
    expect(await reapStaleLock({ file, clock, staleAfterMs: HOUR })).toBeNull()
    expect(existsSync(file)).toBe(true)
    writeFileSync(file, '{torn')
    expect(await reapStaleLock({ file, clock, staleAfterMs: HOUR })).not.toBeNull()
  })
})
