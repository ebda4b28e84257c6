import { spawn } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { fixedClock } from '../../src/clock.js'
import { openStateDb } from '../../src/db/state.js'
import { MEMORY_FILES } from '../../src/notes/paths.js'
import { claimBootstrap, prepareBootstrap } from '../../src/schedule/bootstrap.js'
import { makeWorkspace } from '../helpers/workspace.js'

const RACE = fileURLToPath(new URL('../fixtures/bootstrap-race.ts', import.meta.url))
const HOUR = 3_600_000

function runChild(workspace: string, startAt: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RACE, workspace, String(startAt)])
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('close', () => resolve(out))
  })
}

describe('bootstrap', () => {
  it('copies the missing templates and claims once when core files are missing', async () => {
    const ws = makeWorkspace({ 'notes/memory/user.md': 'mine — keep\n' })
    const state = openStateDb(ws.paths.stateDb)
    const clock = fixedClock('2026-11-21T01:00:00Z')
    const first = await prepareBootstrap({ paths: ws.paths, state, clock, reclaimAfterMs: HOUR })
    expect(first).toEqual({ missing: ['MEMORY.md', 'current-state.md', 'recent-context.md'], claimed: true })
    expect(readdirSync(ws.paths.memory).sort()).toEqual([...MEMORY_FILES].sort())
    expect(await prepareBootstrap({ paths: ws.paths, state, clock, reclaimAfterMs: HOUR })).toEqual({
      missing: [],
      claimed: false,
    })
    state.close()
  })

  it('never bootstraps when the core files are present', async () => {
    const files = Object.fromEntries(
      ['MEMORY.md', 'current-state.md', 'recent-context.md'].map((n) => [`notes/memory/${n}`, 'x']),
    )
    const ws = makeWorkspace(files)
    const state = openStateDb(ws.paths.stateDb)
    expect(
      (
        await prepareBootstrap({
          paths: ws.paths,
          state,
          clock: fixedClock('2026-11-21T01:00:00Z'),
          reclaimAfterMs: HOUR,
        })
      ).claimed,
    ).toBe(false)
    expect(existsSync(join(ws.paths.memory, 'user.md'))).toBe(false)
    state.close()
  })

  it('lets a claim be retaken only after the reclaim horizon', () => {
    const ws = makeWorkspace()
    mkdirSync(ws.paths.dataDir, { recursive: true })
    const state = openStateDb(ws.paths.stateDb)
    const clock = fixedClock('2026-11-21T01:00:00Z')
    expect(claimBootstrap(state, clock, HOUR)).toBe(true)
    clock.advanceMs(HOUR / 2)
    expect(claimBootstrap(state, clock, HOUR)).toBe(false)
    clock.advanceMs(HOUR)
    expect(claimBootstrap(state, clock, HOUR)).toBe(true)
    state.close()
  })

  it('queues exactly one bootstrap when several processes start together', async () => {
    const ws = makeWorkspace()
    writeFileSync(join(ws.paths.dataDir, '.keep'), '')
    const startAt = Date.now() + 1500
    const results = await Promise.all([1, 2, 3, 4].map(() => runChild(ws.dir, startAt)))
    expect(results.filter((r) => r === 'claimed')).toHaveLength(1)
    expect(results.filter((r) => r === 'not-claimed')).toHaveLength(3)
  })
})
