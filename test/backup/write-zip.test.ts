import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeBackupZip, DEFAULT_ZIP_TUNING } from '../../src/backup/write-zip.js'
import { readBackupFiles } from '../../src/backup/verify.js'
import { makeTempDir } from '../helpers/workspace.js'
import { sha256 } from '../helpers/zip.js'

const META = { createdAt: '2026-11-21T01:00:00.000Z', mode: 'manual', chatJid: 'c' }

describe('writeBackupZip', () => {
  it('streams files larger than one read in several chunks and hashes them on the way', async () => {
    const dir = makeTempDir()
    const big = randomBytes(2_500_000) // > 2 stream chunks, incompressible
    const small = Buffer.from('small\n')
    writeFileSync(join(dir, 'big.md'), big)
    writeFileSync(join(dir, 'small.md'), small)
    const notes = [
      { file: join(dir, 'big.md'), path: 'notes/memory/big.md' },
      { file: join(dir, 'small.md'), path: 'notes/memory/small.md' },
    ]
    const target = join(dir, 'out.zip')
    const tuning = { ...DEFAULT_ZIP_TUNING, wholeReadBytes: 4096 }
    const { manifest, bytes } = await writeBackupZip(target, notes, META, tuning)
    expect(manifest.files).toEqual([
      { path: 'notes/memory/big.md', size: big.length, sha256: sha256(big) },
      { path: 'notes/memory/small.md', size: small.length, sha256: sha256(small) },
    ])
    expect(bytes).toBeGreaterThan(big.length)
    const files = await readBackupFiles(target)
    expect(files.get('notes/memory/big.md')?.equals(big)).toBe(true)
    expect(files.get('notes/memory/small.md')?.equals(small)).toBe(true)
  })

  it('skips a file that vanished after listing', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'here.md'), 'here\n')
    const notes = [
      { file: join(dir, 'gone.md'), path: 'notes/daily/gone.md' },
      { file: join(dir, 'here.md'), path: 'notes/daily/here.md' },
    ]
    const { manifest } = await writeBackupZip(join(dir, 'out.zip'), notes, META)
    expect(manifest.files.map((file) => file.path)).toEqual(['notes/daily/here.md'])
  })

  it('rejects, without hanging, when a file cannot be read', async () => {
    const dir = makeTempDir()
    mkdirSync(join(dir, 'folder.md'))
    const notes = Array.from({ length: 40 }, (_, i) => ({
      file: join(dir, `n${i}.md`),
      path: `notes/daily/n${i}.md`,
    }))
    for (const note of notes) writeFileSync(note.file, `note ${note.path}\n`)
    notes.splice(20, 0, { file: join(dir, 'folder.md'), path: 'notes/daily/folder.md' })
    await expect(writeBackupZip(join(dir, 'out.zip'), notes, META)).rejects.toMatchObject({ code: 'EISDIR' })
  })

  it('never overwrites an existing file', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'out.zip'), 'precious')
    await expect(writeBackupZip(join(dir, 'out.zip'), [], META)).rejects.toMatchObject({ code: 'EEXIST' })
    expect(existsSync(join(dir, 'out.zip'))).toBe(true)
  })
})
