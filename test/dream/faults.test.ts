import { chmodSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeDreamWorld } from '../helpers/dream-world.js'
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
})
