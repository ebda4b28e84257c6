import { mkdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { markDirty } from '../../src/fts/journal.js'
import { refreshIndex } from '../../src/fts/refresh.js'
import { searchIndex } from '../../src/fts/search.js'
import { writeFileAtomic } from '../../src/notes/atomic-write.js'
import { fixedClock } from '../helpers/clock.js'
import { makeTempDir } from '../helpers/workspace.js'
import {
  ageTree,
  checkIntegrity,
  editInPlace,
  indexStats,
  makeIndexWorld,
  writeNew,
  type IndexWorld,
} from './fixture.js'

const NOTES = {
  'notes/memory/MEMORY.md': '# Memory\n- user likes kayaking\n',
  'notes/memory/project.md': '# Projects\nThe migration to Postgres is due in March.\n',
  'notes/daily/2026-03-01.md': '# Sunday\nTalked about the lighthouse trip.\n',
  'skills/dream/SKILL.md': '# Dream\nConsolidate notes.\n',
}

async function paths(world: IndexWorld, query: string): Promise<string[]> {
  const hits = await searchIndex({ ...world, query, refresh: false })
  return [...new Set(hits.map((hit) => hit.path))].sort()
}

describe('refreshIndex', () => {
  it('indexes every file under the roots on the first refresh', async () => {
    const world = makeIndexWorld(NOTES)
    const result = await refreshIndex(world)
    expect(result).toMatchObject({ added: 4, updated: 0, removed: 0, filesRead: 4, full: true })
    expect(await paths(world, 'kayaking')).toEqual(['notes/memory/MEMORY.md'])
    expect(indexStats(world.state)).toMatchObject({ files: 4, dirtyPending: 0 })
    expect(indexStats(world.state).lastRefreshAt).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  it('reads no file when nothing changed', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    const again = await refreshIndex(world)
    expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 4, filesRead: 0, full: false })
    // Directories are stat'ed, none of them listed.
    expect(again.dirsStatted).toBeGreaterThan(0)
    expect(again.dirsScanned).toBe(0)
  })

  it('skips the file stats too when the rolling sweep is off', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    const again = await refreshIndex({ ...world, sweepFiles: 0 })
    expect(again).toMatchObject({ filesRead: 0, filesStatted: 0, unchanged: 4 })
  })

  it('reflects an added, an edited and a deleted file', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    await writeFileAtomic(world.abs('notes/memory/user.md'), '# User\nPlays the cello.\n')
    await writeFileAtomic(world.abs('notes/memory/project.md'), '# Projects\nMigrating to MySQL.\n')
    unlinkSync(world.abs('notes/daily/2026-03-01.md'))
    const result = await refreshIndex({ ...world, sweepFiles: 0 })
    expect(result).toMatchObject({ added: 1, updated: 1, removed: 1 })
    expect(await paths(world, 'cello')).toEqual(['notes/memory/user.md'])
    expect(await paths(world, 'mysql')).toEqual(['notes/memory/project.md'])
    expect(await paths(world, 'postgres')).toEqual([])
    expect(await paths(world, 'lighthouse')).toEqual([])
    checkIntegrity(world.state)
  })

  it('finds new directories and forgets deleted ones', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    writeNew(world.abs('notes/topics/boats/canoe.md'), 'A red canoe.\n')
    rmSync(world.abs('notes/daily'), { recursive: true })
    const result = await refreshIndex({ ...world, sweepFiles: 0 })
    expect(result).toMatchObject({ added: 1, removed: 1, filesRead: 1 })
    expect(await paths(world, 'canoe')).toEqual(['notes/topics/boats/canoe.md'])
    expect(await paths(world, 'lighthouse')).toEqual([])
    checkIntegrity(world.state)
  })

  it('reads a markDirty-ed file even when its stat did not move', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    markDirty(world.state, world.dir, [world.abs('notes/memory/MEMORY.md'), '/elsewhere/file.md'])
    expect(indexStats(world.state).dirtyPending).toBe(1)
    const unchanged = await refreshIndex({ ...world, sweepFiles: 0 })
    expect(unchanged).toMatchObject({ filesRead: 1, updated: 0, unchanged: 4 })
    expect(indexStats(world.state).dirtyPending).toBe(0)
  })

  it('reindexes a markDirty-ed file edited in place', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    editInPlace(world.abs('notes/memory/MEMORY.md'), '# Memory\n- user likes sailing\n')
    markDirty(world.state, world.dir, [world.abs('notes/memory/MEMORY.md')])
    const result = await refreshIndex({ ...world, sweepFiles: 0 })
    expect(result).toMatchObject({ filesRead: 1, updated: 1 })
    expect(await paths(world, 'sailing')).toEqual(['notes/memory/MEMORY.md'])
    expect(await paths(world, 'kayaking')).toEqual([])
  })

  it('removes a markDirty-ed file that was deleted', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    unlinkSync(world.abs('skills/dream/SKILL.md'))
    markDirty(world.state, world.dir, [world.abs('skills/dream/SKILL.md')])
    expect(await refreshIndex(world)).toMatchObject({ removed: 1 })
    expect(indexStats(world.state).files).toBe(3)
  })

  it('ignores hidden, temp, out-of-root, unlisted-extension and oversized files', async () => {
    const world = makeIndexWorld({
      ...NOTES,
      'notes/.hidden.md': 'zebra',
      'notes/.private/inside.md': 'zebra',
      'notes/memory/.MEMORY.md.123.abcd.tmp': 'zebra',
      'notes/draft.md.tmp': 'zebra',
      'notes/picture.png': 'zebra',
      'notes/data.json': 'zebra',
      'other/outside-roots.md': 'zebra',
      'top-level.md': 'zebra',
      'notes/huge.md': `zebra ${'x'.repeat(2 * 1024 * 1024)}`,
      'notes/plain.txt': 'zebra crossing',
    })
    const result = await refreshIndex(world)
    expect(result.skipped).toBe(1)
    expect(await paths(world, 'zebra')).toEqual(['notes/plain.txt'])
    markDirty(world.state, world.dir, [world.abs('notes/.hidden.md'), world.abs('other/outside-roots.md')])
    await refreshIndex(world)
    expect(await paths(world, 'zebra')).toEqual(['notes/plain.txt'])
  })

  it('ignores a symlink leading out of the workspace, keeps one that stays inside', async () => {
    const outside = makeTempDir()
    writeFileSync(join(outside, 'secret.md'), 'classified walrus\n')
    mkdirSync(join(outside, 'dir'))
    writeFileSync(join(outside, 'dir', 'inner.md'), 'classified walrus\n')
    const world = makeIndexWorld({ ...NOTES, 'archive/kept.md': 'friendly walrus\n' })
    symlinkSync(join(outside, 'secret.md'), world.abs('notes/secret.md'))
    symlinkSync(join(outside, 'dir'), world.abs('notes/linked-dir'))
    symlinkSync(world.abs('archive/kept.md'), world.abs('notes/kept.md'))
    ageTree(world.dir)
    await refreshIndex(world)
    expect(await paths(world, 'walrus')).toEqual(['notes/kept.md'])
    markDirty(world.state, world.dir, [world.abs('notes/secret.md'), world.abs('notes/linked-dir/inner.md')])
    await refreshIndex(world)
    expect(await paths(world, 'classified')).toEqual([])
  })

  it('follows a root symlinked inside the workspace, never one symlinked out of it', async () => {
    const outside = makeTempDir()
    writeFileSync(join(outside, 'theirs.md'), 'borrowed otter\n')
    const world = makeIndexWorld({ 'notes/a.md': 'plain\n', 'vendor/skills/tool/SKILL.md': 'native otter\n' })
    symlinkSync(world.abs('vendor/skills'), world.abs('skills'))
    symlinkSync(outside, world.abs('extra'))
    const config = { ...world.config, search: { roots: ['notes', 'skills', 'extra'], extensions: ['.md'] } }
    await refreshIndex({ ...world, config })
    expect(await paths({ ...world, config }, 'otter')).toEqual(['skills/tool/SKILL.md'])
    // Journal entries and hit verification check the parent chain from the root's real path: no flip-flop.
    const dirty = [world.abs('skills/tool/SKILL.md'), join(world.dir, 'extra', 'theirs.md')]
    markDirty(world.state, world.dir, dirty)
    expect(await refreshIndex({ ...world, config })).toMatchObject({ removed: 0, added: 0 })
    expect(await paths({ ...world, config }, 'otter')).toEqual(['skills/tool/SKILL.md'])
  })

  it('re-walks when the roots change and drops files no longer covered', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    const search = { roots: ['notes'], extensions: ['.md'] }
    const narrowed = { ...world, config: { ...world.config, search } }
    const result = await refreshIndex(narrowed)
    expect(result).toMatchObject({ full: true, removed: 1, filesRead: 0 })
    expect(await paths(world, 'consolidate')).toEqual([])
  })

  it('re-hashes a freshly written file until it ages out of the racy window', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    writeNew(world.abs('notes/memory/user.md'), 'Fresh note.\n')
    expect(await refreshIndex({ ...world, sweepFiles: 0 })).toMatchObject({ added: 1, filesRead: 1 })
    // Written just now: an equal stat proves nothing yet, so the file is hashed (not reindexed) again and
    // its directory, changed just as recently, is listed again.
    const racy = await refreshIndex({ ...world, sweepFiles: 0 })
    expect(racy).toMatchObject({ updated: 0, filesRead: 1, dirsScanned: 1 })
    ageTree(world.dir)
    await refreshIndex({ ...world, sweepFiles: 0 })
    const settled = await refreshIndex({ ...world, sweepFiles: 0 })
    expect(settled).toMatchObject({ filesRead: 0, filesStatted: 0, dirsScanned: 0 })
  })

  it('judges "racy" by the injected clock: within 3 s of a read, an equal stat proves nothing', async () => {
    const world = makeIndexWorld(NOTES)
    const mtimeMs = statSync(world.abs('notes/memory/MEMORY.md')).mtimeMs
    const clock = fixedClock(new Date(mtimeMs + 2_000).toISOString())
    expect(await refreshIndex({ ...world, clock })).toMatchObject({ added: 4, filesRead: 4 })
    expect(await refreshIndex({ ...world, clock, sweepFiles: 0 })).toMatchObject({ filesRead: 4, updated: 0 })
    clock.advanceMs(2_000)
    expect(await refreshIndex({ ...world, clock, sweepFiles: 0 })).toMatchObject({ filesRead: 4, updated: 0 })
    expect(await refreshIndex({ ...world, clock, sweepFiles: 0 })).toMatchObject({ filesRead: 0 })
  })

  it('full refresh stats every file and catches in-place edits', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    editInPlace(world.abs('skills/dream/SKILL.md'), '# Dream\nConsolidate whale songs.\n')
    const result = await refreshIndex({ ...world, full: true })
    expect(result).toMatchObject({ full: true, filesStatted: 4, filesRead: 1, updated: 1, unchanged: 3 })
    expect(await paths(world, 'whale')).toEqual(['skills/dream/SKILL.md'])
  })

  it('reindexes the file holding the newest chunks, whose chunk ids are reused', async () => {
    const world = makeIndexWorld(NOTES)
    await refreshIndex(world)
    const newest = world.state
      .prepare('SELECT f.path FROM fts_chunks c JOIN fts_files f ON f.id = c.file_id ORDER BY c.id DESC')
      .get() as { path: string }
    // Its old chunks go first, so the new ones take the same ids: the index must still learn their words.
    const longer = Array.from({ length: 70 }, (_, i) => `line ${i} about the harpsichord`).join('\n')
    await writeFileAtomic(world.abs(newest.path), `# Rewritten\n${longer}\n`)
    const result = await refreshIndex({ ...world, sweepFiles: 0 })
    expect(result).toMatchObject({ added: 0, updated: 1 })
    expect(await paths(world, 'harpsichord')).toEqual([newest.path])
    checkIntegrity(world.state)
  })

  it('serialises concurrent refreshes of one state db', async () => {
    const world = makeIndexWorld(NOTES)
    const [first, second] = await Promise.all([refreshIndex(world), refreshIndex(world)])
    expect(first.added).toBe(4)
    expect(second.added).toBe(0)
    expect(indexStats(world.state).files).toBe(4)
  })
})
