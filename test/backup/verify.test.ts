import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBackup } from '../../src/backup/create.js'
import { restoreBackup } from '../../src/backup/restore.js'
import { readBackupFiles, readBackupManifest, verifyBackup } from '../../src/backup/verify.js'
import { BackupCorruptError, BackupNotFoundError } from '../../src/errors.js'
import { fixedClock } from '../helpers/clock.js'
import { makeWorkspace, type TestWorkspace } from '../helpers/workspace.js'
import { patchZipBytes, sha256, writeZip } from '../helpers/zip.js'
import { NOTES, snapshotTree } from './fixtures.js'

const CRAFTED_ID = '20261120T000000Z-manual-c'

function manifestOf(files: Record<string, string>, overrides: Record<string, unknown> = {}): string {
  const entries = Object.entries(files).map(([path, content]) => ({
    path,
    size: Buffer.byteLength(content),
    sha256: sha256(content),
  }))
  return JSON.stringify({
    format: 'dreamlane-backup',
    version: 1,
    createdAt: '2026-11-20T00:00:00.000Z',
    mode: 'manual',
    chatJid: 'c',
    files: entries,
    ...overrides,
  })
}

/** A hand-made archive placed where a real backup would be, so restoreBackup finds it by id. */
async function craft(ws: TestWorkspace, entries: Record<string, string>): Promise<string> {
  const file = join(ws.paths.backups, `${CRAFTED_ID}.zip`)
  mkdirSync(ws.paths.backups, { recursive: true })
  await writeZip(file, entries)
  return file
}

/** A real backup, taken at the crafted id's instant so it is found under CRAFTED_ID. */
function backupOf(ws: TestWorkspace) {
  const clock = fixedClock('2026-11-20T00:00:00Z')
  return createBackup({ paths: ws.paths, mode: 'manual', chatJid: 'c', clock, keep: 10 })
}

async function expectRefusedUntouched(ws: TestWorkspace, reason: RegExp): Promise<void> {
  const before = snapshotTree(ws.dir)
  const clock = fixedClock('2026-11-22T00:00:00Z')
  const restoring = restoreBackup({ paths: ws.paths, id: CRAFTED_ID, clock, keep: 10 })
  await expect(restoring).rejects.toBeInstanceOf(BackupCorruptError)
  await expect(restoring).rejects.toThrow(reason)
  expect(snapshotTree(ws.dir)).toEqual(before)
}

describe('reading backups back', () => {
  it('readBackupFiles returns every file verified, readBackupManifest the manifest', async () => {
    const ws = makeWorkspace(NOTES)
    const backup = await backupOf(ws)
    const files = await readBackupFiles(backup.file)
    expect(Object.fromEntries([...files].map(([path, data]) => [path, data.toString('utf8')]))).toEqual(NOTES)
    const manifest = await readBackupManifest(backup.file)
    expect(manifest.files).toEqual(backup.manifest)
    expect(manifest).toMatchObject({ mode: 'manual', chatJid: 'c', createdAt: backup.createdAt })
    expect((await verifyBackup(backup.file)).files).toHaveLength(Object.keys(NOTES).length)
  })

  it('reports a missing file as BackupNotFoundError', async () => {
    const ws = makeWorkspace()
    const missing = join(ws.paths.backups, `${CRAFTED_ID}.zip`)
    await expect(readBackupManifest(missing)).rejects.toBeInstanceOf(BackupNotFoundError)
  })
})

describe('restore refuses damaged or hostile backups and touches nothing', () => {
  it('refuses garbage bytes', async () => {
    const ws = makeWorkspace(NOTES)
    const backup = await backupOf(ws)
    const size = readFileSync(backup.file).length
    writeFileSync(backup.file, Buffer.from(Array.from({ length: size }, (_, i) => (i * 7919 + 13) % 256)))
    await expectRefusedUntouched(ws, /not a readable zip archive/)
  })

  it('refuses a zip cut in half', async () => {
    const ws = makeWorkspace(NOTES)
    const backup = await backupOf(ws)
    const data = readFileSync(backup.file)
    writeFileSync(backup.file, data.subarray(0, Math.floor(data.length / 2)))
    await expectRefusedUntouched(ws, /not a readable zip archive/)
  })

  it('refuses a zip whose central directory survives but an entry body is damaged', async () => {
    const ws = makeWorkspace(NOTES)
    const backup = await backupOf(ws)
    // Flip bytes inside the stored body of user.md; the zip structure stays intact.
    expect(await patchZipBytes(backup.file, 'Prefers', 'Detests')).toBe(1)
    await expectRefusedUntouched(ws, /notes\/memory\/user\.md does not match its sha256/)
  })

  it('refuses an entry that does not match its manifest hash', async () => {
    const ws = makeWorkspace(NOTES)
    await craft(ws, {
      'notes/memory/MEMORY.md': '- tampered\n',
      'manifest.json': manifestOf({ 'notes/memory/MEMORY.md': '- original\n' }),
    })
    await expectRefusedUntouched(ws, /MEMORY\.md (does not match its sha256|is 11 bytes)/)
  })

  it('refuses when the size in the manifest differs from the entry', async () => {
    const ws = makeWorkspace(NOTES)
    await craft(ws, {
      'notes/memory/MEMORY.md': '- user\n',
      'manifest.json': manifestOf({ 'notes/memory/MEMORY.md': '- a longer original\n' }),
    })
    await expectRefusedUntouched(ws, /MEMORY\.md is 7 bytes in the zip, 20 in the manifest/)
  })

  it.each([
    ['a missing manifest', { 'notes/memory/MEMORY.md': '- user\n' }, /manifest\.json is missing/],
    ['a manifest that is not JSON', { 'manifest.json': '{"files": [' }, /manifest\.json is not JSON/],
    [
      'a manifest of another format',
      { 'manifest.json': manifestOf({}, { format: 'zip' }) },
      /manifest\.json is invalid at format/,
    ],
    [
      'a manifest file missing from the zip',
      { 'manifest.json': manifestOf({ 'notes/memory/MEMORY.md': '- user\n' }) },
      /notes\/memory\/MEMORY\.md is in the manifest but missing from the zip/,
    ],
    [
      'an entry the manifest does not list',
      { 'notes/daily/2026-11-20.md': 'smuggled\n', 'manifest.json': manifestOf({}) },
      /entry notes\/daily\/2026-11-20\.md is not in the manifest/,
    ],
    [
      'a manifest path outside notes/daily and notes/memory',
      { 'skills/evil.md': 'x', 'manifest.json': manifestOf({ 'skills/evil.md': 'x' }) },
      /manifest\.json is invalid at files\.0\.path: unsafe path/,
    ],
    [
      'a hidden manifest path',
      { 'notes/memory/.env.md': 'x', 'manifest.json': manifestOf({ 'notes/memory/.env.md': 'x' }) },
      /unsafe path/,
    ],
  ])('refuses %s', async (_label, entries, reason) => {
    const ws = makeWorkspace(NOTES)
    await craft(ws, entries)
    await expectRefusedUntouched(ws, reason)
  })

  // archiver strips these names itself, so the archive is written with same-length placeholders and patched.
  it.each([
    ['notes/memory/zz/zz/evil.md', 'zz/zz/', '../../'],
    ['notes/memory/days/../../../x.md', 'zz/', '../'],
    ['Xetc/notes/memory/x.md', 'Xetc/', '/etc/'],
  ])('refuses the entry name %s with ".." or an absolute path', async (placeholder, from, to) => {
    const ws = makeWorkspace(NOTES)
    const name = placeholder.replace(/\.\.\//g, 'zz/')
    const file = await craft(ws, { [name]: 'escape\n', 'manifest.json': manifestOf({ [name]: 'escape\n' }) })
    expect(await patchZipBytes(file, from, to)).toBeGreaterThanOrEqual(2)
    await expectRefusedUntouched(ws, /(invalid relative path|absolute path|unsafe path)/)
  })
})
