import { statSync, unlinkSync, utimesSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { refreshIndex } from '../../src/fts/refresh.js'
import { searchIndex } from '../../src/fts/search.js'
import { editInPlace, makeIndexWorld, type IndexWorld } from './fixture.js'

const MEMORY = 'notes/memory/MEMORY.md'
const NOTES = {
  [MEMORY]: '# Memory\n- user likes kayaking on weekends\n',
  'notes/memory/user.md': '# User\n- lives near the harbour\n',
}

async function hitPaths(world: IndexWorld, query: string, refresh = false): Promise<string[]> {
  const hits = await searchIndex({ ...world, query, refresh, limit: 500 })
  return [...new Set(hits.map((hit) => hit.path))].sort()
}

/** Indexes, then turns off every refresh-time check so only search-time verification stands guard. */
async function indexedWorld(): Promise<IndexWorld> {
  const world = makeIndexWorld(NOTES)
  await refreshIndex(world)
  return world
}

describe('outside in-place edits are never served stale', () => {
  it('drops a hit whose file changed content and mtime', async () => {
    const world = await indexedWorld()
    editInPlace(world.abs(MEMORY), '# Memory\n- user likes sailing, and the harbour\n')
    await refreshIndex({ ...world, sweepFiles: 0 })
    expect(await hitPaths(world, 'kayaking')).toEqual([])
    // The verification reindexed the file, so its new words are found too.
    expect(await hitPaths(world, 'sailing')).toEqual([MEMORY])
    expect(await hitPaths(world, 'harbour')).toEqual([MEMORY, 'notes/memory/user.md'])
  })

  it('catches a same-size edit', async () => {
    const world = await indexedWorld()
    const before = statSync(world.abs(MEMORY)).size
    editInPlace(world.abs(MEMORY), '# Memory\n- user likes canoeing on weekends\n')
    expect(statSync(world.abs(MEMORY)).size).toBe(before)
    expect(await hitPaths(world, 'kayaking')).toEqual([])
    expect(await hitPaths(world, 'canoeing')).toEqual([MEMORY])
  })

  it('catches a same-size edit whose mtime was put back (ctime still moves)', async () => {
    const world = await indexedWorld()
    const before = statSync(world.abs(MEMORY))
    editInPlace(world.abs(MEMORY), '# Memory\n- user likes canoeing on weekends\n')
    utimesSync(world.abs(MEMORY), before.atime, before.mtime)
    const after = statSync(world.abs(MEMORY))
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs])
    expect(await hitPaths(world, 'kayaking')).toEqual([])
  })

  it('drops a hit whose file was deleted', async () => {
    const world = await indexedWorld()
    unlinkSync(world.abs(MEMORY))
    expect(await hitPaths(world, 'kayaking')).toEqual([])
    expect(await hitPaths(world, 'harbour')).toEqual(['notes/memory/user.md'])
  })

  it('never serves the old text with the default (refreshing) search either', async () => {
    const world = await indexedWorld()
    editInPlace(world.abs(MEMORY), '# Memory\n- user likes canoeing on weekends\n')
    const hits = await searchIndex({ ...world, query: 'weekends' })
    expect(hits.map((hit) => hit.snippet)).toEqual(['- user likes canoeing on «weekends»'])
  })
})

describe('the rolling sweep', () => {
  it('finds an in-place edit that no directory change reveals within files/slice refreshes', async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 100; i++) {
      files[`notes/topics/t${String(i).padStart(3, '0')}.md`] = `Topic ${i} on gardening.\n`
    }
    const world = makeIndexWorld(files)
    await refreshIndex(world)
    editInPlace(world.abs('notes/topics/t050.md'), 'Topic 50 on astronomy.\n')
    let refreshes = 0
    let statted = 0
    while (refreshes < 20 && (await hitPaths(world, 'astronomy')).length === 0) {
      const result = await refreshIndex(world)
      statted = Math.max(statted, result.filesStatted)
      refreshes++
    }
    // 8 files per refresh (the minimum slice) from the start of the path order: t050 is in the 7th slice.
    expect(statted).toBe(8)
    expect(refreshes).toBe(7)
    expect(await hitPaths(world, 'gardening')).not.toContain('notes/topics/t050.md')
  })
})
