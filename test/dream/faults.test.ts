import { chmodSync } from 'node:fs'
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
      expect(run.reason).toMatch(/note write\(s\) refused .*read-only/)
      expect(run.summary).toMatch(/read-only/)
      expect(snapshotTree(world.paths.memory)).toEqual(before)
    } finally {
      chmodSync(world.paths.memory, 0o755)
    }
  })
})
