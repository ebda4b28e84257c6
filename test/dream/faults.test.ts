import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { composeSummary } from '../../src/dream/summary.js'
import { makeDreamWorld, SMALL_HISTORY } from '../helpers/dream-world.js'
import { snapshotTree } from '../backup/fixtures.js'

describe('a dream meeting faults', () => {
  it('is not marked succeeded when notes/memory is read-only, and leaves memory untouched', async () => {
    const world = await makeDreamWorld()
    const before = snapshotTree(world.paths.memory)
    chmodSync(world.paths.memory, 0o555)
    try {
      const lane = world.open({ env: {} })
      const run = await lane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
      await lane.close()
      expect(run.status).toBe('degraded')
      expect(run.reason).toMatch(/note read\(s\)\/write\(s\) refused .*read-only/)
      expect(run.summary).toMatch(/read-only/)
      expect(snapshotTree(world.paths.memory)).toEqual(before)
    } finally {
      chmodSync(world.paths.memory, 0o755)
    }
  })
  it('leaves notes that are not UTF-8 byte-for-byte alone and reports them, never as unchanged', async () => {
    const world = await makeDreamWorld()
    // latin-1 "é ï ÿ": valid in latin-1, invalid as UTF-8.
    const latin1 = Buffer.from('# Feedback\n\n- caf\xe9 na\xefve \xff\n', 'latin1')
    for (const name of readdirSync(world.paths.memory)) writeFileSync(join(world.paths.memory, name), latin1)
    const before = snapshotTree(world.paths.memory)
    const lane = world.open({ env: {} })
    const run = await lane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const changes = lane.changes(run.id)
    await lane.close()
    expect(snapshotTree(world.paths.memory)).toMatchObject(before)
    expect(run.status).toBe('degraded')
    expect(run.reason).toMatch(/not valid UTF-8.*byte-for-byte alone/)
    const memoryChanges = changes.filter((change) => change.change === 'modified')
    expect(memoryChanges.filter((change) => change.path.startsWith('notes/memory/'))).toEqual([])
  })
  it('does not let a message with a NUL byte block its day: both dreams succeed and the day is summarised', async () => {
    const world = await makeDreamWorld([
      ...SMALL_HISTORY,
      {
        chatJid: 'web:main',
        content: 'I prefer green tea\0 over coffee.',
        timestamp: '2026-11-21T11:00:00.000Z',
      },
    ])
    const lane = world.open({ env: {} })
    const first = await lane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const second = await lane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await lane.close()
    expect([first.status, second.status]).toEqual(['succeeded', 'succeeded'])
    const note = readFileSync(join(world.paths.daily, '2026-11-21.md'), 'utf8')
    expect(note).not.toContain('\0')
    expect(note).not.toContain('NEEDS_SUMMARY')
    expect(JSON.stringify(first.toolCalls)).not.toMatch(/no NUL bytes/)
  })
  it("names a run's change count as the whole run's, so it never contradicts an engine's 'nothing new'", async () => {
    const world = await makeDreamWorld()
    const lane = world.open({ env: {} })
    const run = await lane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await lane.close()
    const text = composeSummary(run, 'Offline dream: nothing new — memory was already up to date.', world.dir)
    expect(text).toMatch(/\nNotes changed by this run \(seeding included\): \d+ files? changed/)
  })
})
