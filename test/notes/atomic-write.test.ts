import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBackup } from '../../src/backup/create.js'
import { restoreBackup } from '../../src/backup/restore.js'
import { NoteReadOnlyError } from '../../src/errors.js'
import { writeFileAtomic } from '../../src/notes/atomic-write.js'
import { DirSyncs } from '../../src/notes/dir-syncs.js'
import { fixedClock } from '../helpers/clock.js'
import { makeTempDir, makeWorkspace } from '../helpers/workspace.js'

const modeOf = (file: string) => statSync(file).mode & 0o777

describe('writeFileAtomic', () => {
  it('leaves the folder fsync to a batch: renamed at once, each folder synced once when the batch flushes', async () => {
    const dir = makeTempDir()
    const synced: string[] = []
    const batch = new DirSyncs(async (folder) => void synced.push(folder))
    await writeFileAtomic(join(dir, 'a', 'one.md'), 'one\n', { dirSyncs: batch })
    await writeFileAtomic(join(dir, 'a', 'two.md'), 'two\n', { dirSyncs: batch })
    await writeFileAtomic(join(dir, 'b', 'three.md'), 'three\n', { dirSyncs: batch })
    // The files are in place (and whole: their bytes were synced before the rename); no folder synced yet.
    expect(readFileSync(join(dir, 'a', 'two.md'), 'utf8')).toBe('two\n')
    expect(readdirSync(join(dir, 'a')).sort()).toEqual(['one.md', 'two.md'])
    expect(synced).toEqual([])
    await batch.flush()
    expect(synced.sort()).toEqual([join(dir, 'a'), join(dir, 'b')])
    await batch.flush()
    expect(synced).toHaveLength(2)
  })

  it("keeps the target's permission bits (a 0600 private note stays 0600)", async () => {
    const file = join(makeTempDir(), 'private.md')
    writeFileSync(file, 'secret\n')
    chmodSync(file, 0o600)
    await writeFileAtomic(file, 'still secret\n')
    expect(readFileSync(file, 'utf8')).toBe('still secret\n')
    expect(modeOf(file)).toBe(0o600)
  })

  it('refuses a note the user made read-only (0444), leaving its bytes and no temp file behind', async () => {
    const dir = makeTempDir()
    const file = join(dir, 'frozen.md')
    writeFileSync(file, 'do not touch\n')
    chmodSync(file, 0o444)
    const attempt = writeFileAtomic(file, 'overwritten\n')
    await expect(attempt).rejects.toBeInstanceOf(NoteReadOnlyError)
    await expect(attempt).rejects.toThrow(/read-only.*chmod u\+w/)
    expect(readFileSync(file, 'utf8')).toBe('do not touch\n')
    expect(readdirSync(dir)).toEqual(['frozen.md'])
  })

  it('refuses to add a file to a folder the user made read-only', async () => {
    const dir = makeTempDir()
    chmodSync(dir, 0o555)
    try {
      await expect(writeFileAtomic(join(dir, 'new.md'), 'x\n')).rejects.toBeInstanceOf(NoteReadOnlyError)
      expect(readdirSync(dir)).toEqual([])
    } finally {
      chmodSync(dir, 0o755)
    }
  })
})

describe('restore uses the same writer', () => {
  it('keeps modes and refuses a read-only note before anything changes', async () => {
    const ws = makeWorkspace({ 'notes/memory/user.md': 'v1\n', 'notes/memory/feedback.md': 'f1\n' })
    const clock = fixedClock('2026-11-21T01:00:00Z')
    const backup = await createBackup({ paths: ws.paths, mode: 'auto', chatJid: 'c', clock, keep: 10 })
    const user = join(ws.paths.memory, 'user.md')
    const feedback = join(ws.paths.memory, 'feedback.md')
    writeFileSync(user, 'v2\n')
    chmodSync(user, 0o600)
    writeFileSync(feedback, 'f2\n')
    chmodSync(feedback, 0o444)
    clock.advanceMs(60_000)
    await expect(restoreBackup({ paths: ws.paths, id: backup.id, clock, keep: 10 })).rejects.toBeInstanceOf(
      NoteReadOnlyError,
    )
    expect(readFileSync(user, 'utf8')).toBe('v2\n')

    chmodSync(feedback, 0o644)
    clock.advanceMs(60_000)
    await restoreBackup({ paths: ws.paths, id: backup.id, clock, keep: 10 })
    expect(readFileSync(user, 'utf8')).toBe('v1\n')
    expect(modeOf(user)).toBe(0o600)
  })
})
