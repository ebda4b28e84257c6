import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/db/migrate.js'
import { openStateDb } from '../../src/db/state.js'
import { refreshIndex } from '../../src/fts/refresh.js'
import { FTS_MIGRATIONS } from '../../src/fts/schema.js'
import { checkIntegrity, indexStats, makeIndexWorld } from './fixture.js'

describe('fts schema', () => {
  it('re-runs its migrations idempotently, keeping the index', async () => {
    const world = makeIndexWorld({ 'notes/a.md': 'alpha\n' })
    await refreshIndex(world)
    expect(migrate(world.state, 'fts', FTS_MIGRATIONS)).toBe(FTS_MIGRATIONS.length)
    world.state.close()
    const reopened = openStateDb(join(world.paths.dataDir, 'state.db'))
    try {
      expect(migrate(reopened, 'fts', FTS_MIGRATIONS)).toBe(FTS_MIGRATIONS.length)
      expect(indexStats(reopened).files).toBe(1)
      const result = await refreshIndex({ ...world, state: reopened })
      expect(result).toMatchObject({ full: false, filesRead: 0, unchanged: 1 })
      expect(() => checkIntegrity(reopened)).not.toThrow()
    } finally {
      reopened.close()
    }
  })
})
