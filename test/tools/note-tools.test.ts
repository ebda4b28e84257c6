// Note tools on a real workspace: reads, listings, grep, writes, edits and the daily-note front matter rule.
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DirSyncs } from '../../src/notes/dir-syncs.js'
import { createToolSet } from '../../src/tools/tool-set.js'
import { LIST_MAX_FILES } from '../../src/tools/note-tools.js'
import { dailyNote, makeToolWorld, snapshotTree } from './world.js'

const MEMORY = '# Memory\n- [user](user.md): who Alex is\n'
const USER = '# User\n- Alex prefers tea\n- Alex lives in Lisbon\n'
const OLD_DAY = dailyNote('2026-10-01', 'Alex booked TEA tasting.')
const TEA_LINE = OLD_DAY.split('\n').indexOf('Alex booked TEA tasting.') + 1

function noteWorld(extra: Record<string, string> = {}, flags = {}) {
  const world = makeToolWorld(
    {
      'notes/memory/MEMORY.md': MEMORY,
      'notes/memory/user.md': USER,
      'notes/daily/2026-11-22.md': dailyNote('2026-11-22'),
      'notes/daily/2026-10-01.md': OLD_DAY,
      'skills/dream/SKILL.md': '# Dream\nConsolidate tea facts.\n',
      ...extra,
    },
    { flags },
  )
  return { ...world, tools: createToolSet(world.context) }
}

describe('read_file', () => {
  it('returns the raw text of a note, out-of-window daily notes and skills included', async () => {
    const { tools } = noteWorld()
    expect(await tools.call('read_file', { path: 'notes/memory/user.md' })).toEqual({
      ok: true,
      content: USER,
    })
    expect((await tools.call('read_file', { path: 'notes/daily/2026-10-01.md' })).content).toContain(
      'TEA tasting',
    )
    expect((await tools.call('read_file', { path: './skills//dream/SKILL.md' })).content).toBe(
      '# Dream\nConsolidate tea facts.\n',
    )
  })

  it('reads through a symlink to another readable note inside the workspace', async () => {
    const { tools, dir } = noteWorld()
    symlinkSync('user.md', join(dir, 'notes/memory/alias.md'))
    expect(await tools.call('read_file', { path: 'notes/memory/alias.md' })).toEqual({
      ok: true,
      content: USER,
    })
  })

  it('cuts files above the size cap at a line boundary and says so', async () => {
    const big = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n')
    const { tools } = noteWorld({ 'notes/memory/big.md': big }, { tools: { maxWriteBytes: 1000 } })
    const result = await tools.call('read_file', { path: 'notes/memory/big.md' })
    expect(result.ok).toBe(true)
    const [shown, note] = result.content.split('\n[truncated: ')
    expect(big.startsWith(shown as string)).toBe(true)
    expect(shown?.endsWith('\n')).toBe(true)
    expect(Buffer.byteLength(shown as string)).toBeLessThanOrEqual(1000)
    expect(note).toMatch(new RegExp(`of ${Buffer.byteLength(big)} bytes of notes/memory/big.md`))
  })

  it('refuses a missing note with NOT_FOUND and a hint', async () => {
    const { tools } = noteWorld()
    const result = await tools.call('read_file', { path: 'notes/memory/project.md' })
    expect(result).toMatchObject({ ok: false, code: 'NOT_FOUND' })
    expect(result.content).toMatch(/notes\/memory\/project\.md does not exist; list_files/)
  })
})

describe('list_files', () => {
  it('lists text notes recursively and sorted, skipping hidden, temp and non-text files', async () => {
    const { tools } = noteWorld({
      'notes/memory/.user.md.123.tmp': 'temp',
      'notes/memory/index.json': '{}',
      'notes/a.txt': 'top',
    })
    const result = await tools.call('list_files', {})
    expect(result.content.split('\n')).toEqual([
      'notes/a.txt',
      'notes/daily/2026-10-01.md',
      'notes/daily/2026-11-22.md',
      'notes/memory/MEMORY.md',
      'notes/memory/user.md',
    ])
    expect((await tools.call('list_files', { path: 'skills' })).content).toBe('skills/dream/SKILL.md')
  })

  it(`caps the listing at ${LIST_MAX_FILES} paths and says so`, async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < LIST_MAX_FILES + 5; i++)
      files[`notes/memory/days/x${String(i).padStart(4, '0')}.md`] = ''
    const { tools } = noteWorld(files)
    const lines = (await tools.call('list_files', { path: 'notes/memory/days' })).content.split('\n')
    expect(lines).toHaveLength(LIST_MAX_FILES + 1)
    expect(lines[0]).toBe('notes/memory/days/x0000.md')
    expect(lines.at(-1)).toBe(
      `[capped: showing ${LIST_MAX_FILES} of ${LIST_MAX_FILES + 5} files; list a subfolder to see the rest]`,
    )
  })
})

describe('grep_notes', () => {
  it('finds a plain substring case-insensitively across every root, as path:line: text', async () => {
    const { tools } = noteWorld()
    const result = await tools.call('grep_notes', { pattern: 'TEA' })
    expect(result.content.split('\n')).toEqual([
      `notes/daily/2026-10-01.md:${TEA_LINE}: Alex booked TEA tasting.`,
      'notes/memory/user.md:2: - Alex prefers tea',
      'skills/dream/SKILL.md:2: Consolidate tea facts.',
    ])
  })

  it('matches case when asked, treats regex characters literally and can search one file', async () => {
    const { tools } = noteWorld({ 'notes/memory/project.md': 'costs (a+b)*2\nA+B\n' })
    expect((await tools.call('grep_notes', { pattern: 'TEA', ignore_case: false })).content).toBe(
      `notes/daily/2026-10-01.md:${TEA_LINE}: Alex booked TEA tasting.`,
    )
    expect((await tools.call('grep_notes', { pattern: '(a+b)*' })).content).toBe(
      'notes/memory/project.md:1: costs (a+b)*2',
    )
    expect(
      (await tools.call('grep_notes', { pattern: 'alex', path: 'notes/memory/user.md' })).content.split('\n'),
    ).toHaveLength(2)
  })

  it('caps matches at tools.maxResults and says so; no match is reported plainly', async () => {
    const { tools } = noteWorld(
      { 'notes/memory/project.md': 'hit\n'.repeat(10) },
      { tools: { maxResults: 3 } },
    )
    const lines = (await tools.call('grep_notes', { pattern: 'hit', path: 'notes/memory' })).content.split(
      '\n',
    )
    expect(lines).toEqual([
      'notes/memory/project.md:1: hit',
      'notes/memory/project.md:2: hit',
      'notes/memory/project.md:3: hit',
      '[capped at 3 matches; narrow the pattern or the path]',
    ])
    expect((await tools.call('grep_notes', { pattern: 'zebra' })).content).toMatch(
      /^\[no matches for "zebra" in \d+ files\]$/,
    )
  })
})

describe('write_file', () => {
  it("in a dream's batch, leaves the folder fsync to the batch's flush: once per folder, however many writes", async () => {
    const world = noteWorld()
    const synced: string[] = []
    const dirSyncs = new DirSyncs(async (folder) => void synced.push(folder))
    const tools = createToolSet({ ...world.context, dirSyncs })
    for (const [path, content] of [
      ['notes/memory/user.md', '# User\n- Alex prefers coffee now\n'],
      ['notes/memory/project.md', '# Project\n- Tea shop\n'],
      ['notes/daily/2026-11-22.md', dailyNote('2026-11-22', 'Tasted oolong.')],
    ])
      expect((await tools.call('write_file', { path, content })).ok).toBe(true)
    expect(readFileSync(join(world.dir, 'notes/memory/user.md'), 'utf8')).toContain('coffee')
    expect(synced).toEqual([])
    await dirSyncs.flush()
    expect(synced.sort()).toEqual([join(world.dir, 'notes/daily'), join(world.dir, 'notes/memory')])
  })

  it('creates and replaces memory files and day pages, reporting bytes written', async () => {
    const { tools, dir } = noteWorld()
    const text = '# Project\n- Launch on 2026-12-01 — café\n'
    const result = await tools.call('write_file', { path: 'notes/memory/project.md', content: text })
    expect(result).toEqual({
      ok: true,
      content: `wrote notes/memory/project.md (${Buffer.byteLength(text)} bytes)`,
    })
    expect(readFileSync(join(dir, 'notes/memory/project.md'), 'utf8')).toBe(text)
    await tools.call('write_file', { path: 'notes/memory/days/2026-11-02.md', content: '# A day\n' })
    expect(readFileSync(join(dir, 'notes/memory/days/2026-11-02.md'), 'utf8')).toBe('# A day\n')
    expect(tools.changedFiles()).toEqual([
      join(dir, 'notes/memory/project.md'),
      join(dir, 'notes/memory/days/2026-11-02.md'),
    ])
  })

  it('accepts a valid daily note for a day in the window', async () => {
    const { tools, dir } = noteWorld()
    const note = dailyNote('2026-11-23', 'Alex planned the launch.', {
      summarised_until: '2026-11-23T09:05:00.000Z',
    })
    const result = await tools.call('write_file', { path: 'notes/daily/2026-11-23.md', content: note })
    expect(result.ok).toBe(true)
    expect(readFileSync(join(dir, 'notes/daily/2026-11-23.md'), 'utf8')).toBe(note)
  })

  it('refuses a daily note missing the summarised_until key and leaves the old note', async () => {
    const { tools, dir } = noteWorld()
    const before = snapshotTree(dir)
    const broken = dailyNote('2026-11-22', 'Summary.').replace('summarised_until: null\n', '')
    const result = await tools.call('write_file', { path: 'notes/daily/2026-11-22.md', content: broken })
    expect(result).toMatchObject({ ok: false, code: 'DAILY_NOTE_INVALID' })
    expect(result.content).toMatch(
      /^notes\/daily\/2026-11-22\.md: front matter is missing "summarised_until"/,
    )
    expect(snapshotTree(dir)).toEqual(before)
  })
})

describe('edit_file', () => {
  it('replaces exactly one occurrence, keeping $ patterns literal', async () => {
    const { tools, dir } = noteWorld()
    const result = await tools.call('edit_file', {
      path: 'notes/memory/user.md',
      old_string: 'Alex lives in Lisbon',
      new_string: 'Alex lives in Porto ($& moved)',
    })
    const text = '# User\n- Alex prefers tea\n- Alex lives in Porto ($& moved)\n'
    expect(result).toEqual({
      ok: true,
      content: `wrote notes/memory/user.md (${Buffer.byteLength(text)} bytes)`,
    })
    expect(readFileSync(join(dir, 'notes/memory/user.md'), 'utf8')).toBe(text)
  })

  it('refuses no match and ambiguous matches, and replace_all settles the ambiguity', async () => {
    const { tools, dir } = noteWorld()
    const missing = await tools.call('edit_file', {
      path: 'notes/memory/user.md',
      old_string: 'coffee',
      new_string: 'tea',
    })
    expect(missing).toMatchObject({ ok: false, code: 'EDIT_NO_MATCH' })
    expect(missing.content).toMatch(/old_string was not found in notes\/memory\/user\.md/)
    const twice = await tools.call('edit_file', {
      path: 'notes/memory/user.md',
      old_string: 'Alex',
      new_string: 'Sam',
    })
    expect(twice).toMatchObject({ ok: false, code: 'EDIT_AMBIGUOUS' })
    expect(twice.content).toMatch(/occurs 2 times in notes\/memory\/user\.md/)
    expect(readFileSync(join(dir, 'notes/memory/user.md'), 'utf8')).toBe(USER)
    const all = await tools.call('edit_file', {
      path: 'notes/memory/user.md',
      old_string: 'Alex',
      new_string: 'Sam',
      replace_all: true,
    })
    expect(all.ok).toBe(true)
    expect(readFileSync(join(dir, 'notes/memory/user.md'), 'utf8')).toBe(USER.replaceAll('Alex', 'Sam'))
  })

  it('refuses editing a note that does not exist yet', async () => {
    const { tools } = noteWorld()
    const result = await tools.call('edit_file', {
      path: 'notes/memory/project.md',
      old_string: 'a',
      new_string: 'b',
    })
    expect(result).toMatchObject({ ok: false, code: 'NOT_FOUND' })
    expect(result.content).toMatch(/use write_file to create it/)
  })

  it('edits the body of an in-window daily note while front matter stays valid', async () => {
    const { tools, dir } = noteWorld()
    const result = await tools.call('edit_file', {
      path: 'notes/daily/2026-11-22.md',
      old_string: '<!-- NEEDS_SUMMARY -->',
      new_string: 'Alex and the assistant planned the launch.',
    })
    expect(result.ok).toBe(true)
    expect(readFileSync(join(dir, 'notes/daily/2026-11-22.md'), 'utf8')).toContain('planned the launch.')
  })

  it('refuses a write to a file that turned into a symlink after listing', async () => {
    const { tools, dir } = noteWorld()
    writeFileSync(join(dir, 'notes/memory/target.md'), 'other\n')
    symlinkSync('target.md', join(dir, 'notes/memory/project.md'))
    const result = await tools.call('edit_file', {
      path: 'notes/memory/project.md',
      old_string: 'other',
      new_string: 'x',
    })
    expect(result).toMatchObject({ ok: false, code: 'PATH_OUT_OF_SCOPE' })
    expect(result.content).toMatch(/leads to notes\/memory\/target\.md; writing through symlinks is refused/)
  })
})
