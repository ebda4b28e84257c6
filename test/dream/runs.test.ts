import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixedClock } from '../../src/clock.js'
import { openStateDb } from '../../src/db/state.js'
import { RunStore } from '../../src/dream/runs.js'
import { makeTempDir } from '../helpers/workspace.js'

function store(clock = fixedClock('2026-11-21T01:00:00Z')) {
  const db = openStateDb(join(makeTempDir(), 'state.db'))
  return { runs: new RunStore(db, clock, 'UTC'), clock, db }
}

describe('run records', () => {
  it('goes queued → running → succeeded with steps, usage and tool calls kept', () => {
    const { runs, clock } = store()
    const run = runs.open({ mode: 'manual', chatJid: 'web:main', days: 7 })
    expect(run.status).toBe('queued')
    clock.advanceMs(1000)
    expect(runs.markRunning(run.id).startedAt).toBe('2026-11-21T01:00:01.000Z')
    runs.update(run.id, {
      steps: [{ name: 'backup', startedAt: '2026-11-21T01:00:01.000Z', durationMs: 12, ok: true }],
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 3, cacheWriteTokens: 2, requests: 1 },
      toolCalls: [
        { name: 'read_file', input: { path: 'x' }, ok: true, preview: '', startedAt: 'x', durationMs: 1 },
      ],
      changedFiles: ['/w/notes/memory/user.md'],
    })
    const done = runs.close(run.id, { status: 'succeeded', gate: 'triggered', summary: 'ok' })
    expect(done).toMatchObject({
      status: 'succeeded',
      gate: 'triggered',
      summary: 'ok',
      changedFiles: ['/w/notes/memory/user.md'],
    })
    expect(done.usage.cacheReadTokens).toBe(3)
    expect(done.steps[0]?.name).toBe('backup')
    expect(done.toolCalls).toHaveLength(1)
  })

  it('lists newest first, filters by status and finds the last success', () => {
    const { runs, clock } = store()
    const a = runs.open({ mode: 'auto', chatJid: 'c', days: 2 })
    runs.close(a.id, { status: 'succeeded' })
    clock.advanceMs(60_000)
    const b = runs.open({ mode: 'manual', chatJid: 'c', days: 7 })
    runs.close(b.id, { status: 'failed', errorCode: 'PROVIDER_FAILED', errorMessage: 'boom' })
    expect(runs.list().map((r) => r.id)).toEqual([b.id, a.id])
    expect(runs.list({ status: ['failed'] }).map((r) => r.id)).toEqual([b.id])
    expect(runs.lastSucceeded()?.id).toBe(a.id)
  })

  it('marks abandoned running and queued runs lost, and survives reopening the DB', () => {
    const { runs, db, clock } = store()
    const a = runs.open({ mode: 'manual', chatJid: 'c', days: 7 })
    runs.markRunning(a.id)
    expect(runs.markAbandonedLost('crashed')).toEqual([a.id])
    const again = new RunStore(db, clock, 'UTC')
    expect(again.get(a.id)).toMatchObject({ status: 'lost', reason: 'crashed' })
  })

  it('throws a coded error for an unknown id', () => {
    const { runs } = store()
    expect(() => runs.get('run-nope')).toThrow(expect.objectContaining({ code: 'RUN_NOT_FOUND' }))
  })
})
