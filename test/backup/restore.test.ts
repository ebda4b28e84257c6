import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBackup } from '../../src/backup/create.js'
import { listBackups } from '../../src/backup/list.js'
import { restoreBackup } from '../../src/backup/restore.js'
import { MAX_NOTE_BYTES } from '../../src/backup/verify.js'
import { BackupNotFoundError, PathOutOfScopeError } from '../../src/errors.js'
import { fixedClock } from '../helpers/clock.js'
import { makeTempDir, makeWorkspace, type TestWorkspace } from '../helpers/workspace.js'
import { readZip } from '../helpers/zip.js'
import { NOTES, snapshotTree } from './fixtures.js'

const later = () => fixedClock('2026-11-22T00:00:00Z')

async function backupOf(ws: TestWorkspace, clock = fixedClock('2026-11-21T01:00:00Z')) {
  return createBackup({ paths: ws.paths, mode: 'auto', chatJid: 'chat-1', clock, keep: 10 })
}

function notesOf(ws: TestWorkspace): Record<string, string> {
  const tree = snapshotTree(join(ws.dir, 'notes'))
  return Object.fromEntries(Object.entries(tree).map(([path, data]) => [`notes/${path}`, data]))
}

describe('restoreBackup', () => {
  it('round-trips the notes tree byte-for-byte and removes files added after the backup', async () => {
    const ws = makeWorkspace(NOTES)
    const before = notesOf(ws)
    const clock = fixedClock('2026-11-21T01:00:00Z')
    const backup = await backupOf(ws, clock)

    writeFileSync(join(ws.paths.memory, 'user.md'), 'Name: someone else\n')
    rmSync(join(ws.paths.daily, '2026-11-19.md'))
    writeFileSync(join(ws.paths.daily, '2026-11-22.md'), 'added after the backup\n')
    mkdirSync(join(ws.paths.memory, 'days', 'extra'), { recursive: true })
    writeFileSync(join(ws.paths.memory, 'days', 'extra', 'deep.md'), 'nested newcomer\n')
    clock.advanceMs(60_000)

    const result = await restoreBackup({ paths: ws.paths, id: backup.id, clock, keep: 10 })
    expect(notesOf(ws)).toEqual(before)
    expect(result.restored.sort()).toEqual(['notes/daily/2026-11-19.md', 'notes/memory/user.md'])
    expect(result.removed.sort()).toEqual(['notes/daily/2026-11-22.md', 'notes/memory/days/extra/deep.md'])
    expect(result.unchanged).toHaveLength(Object.keys(NOTES).length - 2)
  })

  it('takes a safety backup of the current tree before changing anything', async () => {
    const ws = makeWorkspace(NOTES)
    const clock = fixedClock('2026-11-21T01:00:00Z')
    const backup = await backupOf(ws, clock)
    writeFileSync(join(ws.paths.daily, '2026-11-22.md'), 'only in the present\n')
    writeFileSync(join(ws.paths.memory, 'MEMORY.md'), '# Memory, edited\n')
    const present = notesOf(ws)
    clock.advanceMs(3_600_000)

    const { safetyBackup } = await restoreBackup({ paths: ws.paths, id: backup.id, clock, keep: 10 })
    expect(safetyBackup.mode).toBe('restore')
    expect(safetyBackup.id).toBe('20261121T020000Z-restore-chat-1')
    const saved = await readZip(safetyBackup.file)
    expect(saved['notes/daily/2026-11-22.md']).toBe('only in the present\n')
    expect(saved['notes/memory/MEMORY.md']).toBe('# Memory, edited\n')
    expect((await listBackups(ws.paths)).map((b) => b.id)).toEqual([safetyBackup.id, backup.id])

    // Restoring the safety backup undoes the restore.
    await restoreBackup({ paths: ws.paths, id: safetyBackup.id, clock, keep: 10 })
    expect(notesOf(ws)).toEqual(present)
  })

  it('keeps the safety backup and reads the restored one before pruning with keep=1', async () => {
    const ws = makeWorkspace(NOTES)
    const clock = fixedClock('2026-11-21T01:00:00Z')
    const old = await backupOf(ws, clock)
    const before = notesOf(ws)
    writeFileSync(join(ws.paths.memory, 'user.md'), 'changed\n')
    clock.advanceMs(60_000)
    const result = await restoreBackup({ paths: ws.paths, id: old.id, clock, keep: 1 })
    expect(notesOf(ws)).toEqual(before)
    expect((await listBackups(ws.paths)).map((b) => b.id)).toEqual([result.safetyBackup.id])
  })

  it('refuses an unknown id with BackupNotFoundError and touches nothing', async () => {
    const ws = makeWorkspace(NOTES)
    await backupOf(ws)
    const before = snapshotTree(ws.dir)
    const id = '20200101T000000Z-manual-ghost'
    await expect(restoreBackup({ paths: ws.paths, id, clock: later(), keep: 10 })).rejects.toBeInstanceOf(
      BackupNotFoundError,
    )
    expect(snapshotTree(ws.dir)).toEqual(before)
  })

  it('refuses to write through a symlinked note folder, before taking any backup', async () => {
    const ws = makeWorkspace(NOTES)
    const backup = await backupOf(ws)
    const outside = makeTempDir()
    rmSync(join(ws.paths.memory, 'days'), { recursive: true })
    symlinkSync(outside, join(ws.paths.memory, 'days'))
    const before = snapshotTree(ws.dir)
    const restoring = restoreBackup({ paths: ws.paths, id: backup.id, clock: later(), keep: 10 })
    await expect(restoring).rejects.toBeInstanceOf(PathOutOfScopeError)
    expect(snapshotTree(ws.dir)).toEqual(before)
    expect(snapshotTree(outside)).toEqual({})
  })

  it('leaves hidden and temp files alone', async () => {
    const ws = makeWorkspace(NOTES)
    const backup = await backupOf(ws)
    writeFileSync(join(ws.paths.memory, '.scratch.md'), 'hidden')
    writeFileSync(join(ws.paths.daily, 'x.md.tmp'), 'temp')
    await restoreBackup({ paths: ws.paths, id: backup.id, clock: later(), keep: 10 })
    expect(readFileSync(join(ws.paths.memory, '.scratch.md'), 'utf8')).toBe('hidden')
    expect(readFileSync(join(ws.paths.daily, 'x.md.tmp'), 'utf8')).toBe('temp')
  })
})

describe('restore limits', () => {
  it('refuses a backup holding a note over the per-file cap before touching anything', async () => {
    const ws = makeWorkspace({ 'notes/memory/user.md': 'small\n' })
    writeFileSync(join(ws.paths.memory, 'huge.md'), Buffer.alloc(MAX_NOTE_BYTES + 1, 'a'))
    const clock = fixedClock('2026-11-21T01:00:00Z')
    const backup = await backupOf(ws, clock)
    writeFileSync(join(ws.paths.memory, 'user.md'), 'edited\n')
    clock.advanceMs(60_000)
    await expect(restoreBackup({ paths: ws.paths, id: backup.id, clock, keep: 10 })).rejects.toThrow(
      /huge\.md is 32 MiB, over the 32 MiB limit for one note/,
    )
    expect(readFileSync(join(ws.paths.memory, 'user.md'), 'utf8')).toBe('edited\n')
  })
})
