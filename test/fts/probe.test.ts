import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_FILE_BYTES, readNewFile } from '../../src/fts/probe.js'
import { resolveScope } from '../../src/fts/scope.js'
import { makeIndexWorld } from './fixture.js'

const CONFIG = { search: { roots: ['notes'], extensions: ['.md'] } }

describe('readNewFile', () => {
  it('reads a regular file with the stat of the descriptor it read from', async () => {
    const world = makeIndexWorld({ 'notes/a.md': '# A\nhello\n' })
    const scope = await resolveScope(world.paths, CONFIG)
    const read = await readNewFile(scope, 'notes/a.md')
    const stat = statSync(world.abs('notes/a.md'))
    expect(read).toEqual({
      status: 'read',
      bytes: Buffer.from('# A\nhello\n'),
      stat: { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino },
    })
  })

  it('leaves a symlink to the probe, which knows where links may lead', async () => {
    const world = makeIndexWorld({ 'notes/a.md': 'target\n' })
    symlinkSync(world.abs('notes/a.md'), world.abs('notes/link.md'))
    const scope = await resolveScope(world.paths, CONFIG)
    expect(await readNewFile(scope, 'notes/link.md')).toBeUndefined()
  })

  it('says missing for a file gone since the walk, skipped for one too large or not a file', async () => {
    const world = makeIndexWorld({ 'notes/a.md': 'a\n' })
    writeFileSync(world.abs('notes/big.md'), Buffer.alloc(MAX_FILE_BYTES + 1, 'x'))
    mkdirSync(world.abs('notes/dir.md'))
    const scope = await resolveScope(world.paths, CONFIG)
    expect(await readNewFile(scope, 'notes/gone.md')).toEqual({ status: 'missing' })
    expect(await readNewFile(scope, 'notes/big.md')).toEqual({ status: 'skipped' })
    expect(await readNewFile(scope, join('notes', 'dir.md'))).toEqual({ status: 'skipped' })
  })
})
