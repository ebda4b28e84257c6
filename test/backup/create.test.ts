import { mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openPromise } from 'yauzl'
import { describe, expect, it } from 'vitest'
import { createBackup } from '../../src/backup/create.js'
import { listBackups } from '../../src/backup/list.js'
import { fixedClock } from '../helpers/clock.js'
import { makeTempDir, makeWorkspace, type TestWorkspace } from '../helpers/workspace.js'
import { readZip, readZipBuffers, sha256 } from '../helpers/zip.js'
import { NOTES } from './fixtures.js'

const clock = () => fixedClock('2026-11-21T01:00:00.250Z')

function backupOf(ws: TestWorkspace, mode = 'manual', chatJid = 'c', paths = ws.paths) {
  return createBackup({ paths, mode, chatJid, clock: clock(), keep: 10 })
}

describe('createBackup', () => {
  it('records path, size and sha256 of every note in the manifest (hashes computed here)', async () => {
    const ws = makeWorkspace(NOTES)
    const backup = await backupOf(ws, 'manual', 'chat-1')
    const manifest = JSON.parse((await readZip(backup.file))['manifest.json'] ?? '{}')
    const expected = Object.entries(NOTES)
      .map(([path, content]) => ({ path, size: Buffer.byteLength(content), sha256: sha256(content) }))
      .sort((a, b) => (a.path < b.path ? -1 : 1))
    expect(manifest.files).toEqual(expected)
    const createdAt = '2026-11-21T01:00:00.000Z'
    expect(manifest).toMatchObject({ mode: 'manual', chatJid: 'chat-1', createdAt })
    expect(backup.manifest).toEqual(expected)
    expect(backup.fileCount).toBe(Object.keys(NOTES).length)
  })

  it('stores every note byte-for-byte, including non-ASCII, empty and multi-read files', async () => {
    const ws = makeWorkspace({ ...NOTES, 'notes/memory/days/café-東京.md': 'ünïcödé name\n' })
    const backup = await backupOf(ws, 'auto')
    const entries = await readZipBuffers(backup.file)
    for (const [path, content] of Object.entries(NOTES)) {
      expect(entries[path]?.equals(Buffer.from(content))).toBe(true)
    }
    expect(entries['notes/memory/days/café-東京.md']?.toString('utf8')).toBe('ünïcödé name\n')
    expect(entries['notes/memory/feedback.md']?.length).toBe(0)
  })

  it('leaves out the lock file, temp files, hidden files and folders, and symlinks', async () => {
    const ws = makeWorkspace({
      'notes/memory/MEMORY.md': '- user\n',
      'notes/memory/.MEMORY.md.123.abcd.tmp': 'half-written',
      'notes/daily/draft.tmp': 'temp',
      'notes/daily/.hidden.md': 'hidden',
      'notes/memory/.git/config': 'hidden folder',
      'notes/memory/dream.lock': '{"pid":1}',
    })
    const outside = join(makeTempDir(), 'secret.md')
    writeFileSync(outside, 'outside the workspace')
    symlinkSync(outside, join(ws.paths.memory, 'link.md'))
    mkdirSync(join(ws.dir, 'elsewhere'))
    symlinkSync(join(ws.dir, 'elsewhere'), join(ws.paths.memory, 'days'))
    // The lock normally lives in the data dir; placing it inside notes proves it is excluded by identity.
    const paths = { ...ws.paths, lockFile: join(ws.paths.memory, 'dream.lock') }
    const backup = await backupOf(ws, 'manual', 'c', paths)
    const names = Object.keys(await readZip(backup.file)).sort()
    expect(names).toEqual(['manifest.json', 'notes/memory/MEMORY.md'])
  })

  it('says the backups folder cannot be written when a file stands in its way (WRITE_FAILED, not a bug)', async () => {
    const ws = makeWorkspace(NOTES)
    mkdirSync(join(ws.paths.backups, '..'), { recursive: true })
    writeFileSync(ws.paths.backups, 'not a folder')
    await expect(backupOf(ws)).rejects.toMatchObject({
      code: 'WRITE_FAILED',
      message: expect.stringContaining(`could not write ${ws.paths.backups}: EEXIST`),
    })
    const inside = { ...ws.paths, backups: join(ws.paths.backups, 'deeper') }
    await expect(backupOf(ws, 'manual', 'c', inside)).rejects.toMatchObject({ code: 'WRITE_FAILED' })
  })

  it('writes a valid backup of nothing when the note folders are missing', async () => {
    const ws = makeWorkspace()
    const backup = await backupOf(ws, 'bootstrap')
    const manifest = JSON.parse((await readZip(backup.file))['manifest.json'] ?? '{}')
    expect(manifest.files).toEqual([])
    expect(backup.fileCount).toBe(0)
  })

  it('names the file <stamp>-<mode>-<sanitised jid>.zip and leaves no temp file', async () => {
    const ws = makeWorkspace(NOTES)
    const backup = await backupOf(ws, 'manual', 'web:chat/1@x y')
    expect(backup.id).toBe('20261121T010000Z-manual-web_chat_1_x_y')
    expect(backup.file).toBe(join(ws.paths.backups, `${backup.id}.zip`))
    expect(backup.bytes).toBe(statSync(backup.file).size)
    expect(backup.createdAt).toBe('2026-11-21T01:00:00.000Z')
    expect(readdirSync(ws.paths.backups)).toEqual([`${backup.id}.zip`])
  })

  it('gives backups in the same second distinct ids that still sort by creation', async () => {
    const ws = makeWorkspace(NOTES)
    const fixed = clock()
    const ids: string[] = []
    for (const mode of ['manual', 'auto', 'restore']) {
      ids.push((await createBackup({ paths: ws.paths, mode, chatJid: 'c', clock: fixed, keep: 10 })).id)
    }
    expect(ids).toEqual([
      '20261121T010000Z-manual-c',
      '20261121T010000Z.001-auto-c',
      '20261121T010000Z.002-restore-c',
    ])
    expect([...ids].sort()).toEqual(ids)
    fixed.advanceMs(1000)
    const later = await createBackup({ paths: ws.paths, mode: 'auto', chatJid: 'c', clock: fixed, keep: 10 })
    expect((await listBackups(ws.paths)).map((b) => b.id)).toEqual([later.id, ...ids.reverse()])
  })

  it('gives concurrent backups in the same second distinct ids', async () => {
    const ws = makeWorkspace(NOTES)
    const fixed = clock()
    const take = () => createBackup({ paths: ws.paths, mode: 'auto', chatJid: 'c', clock: fixed, keep: 10 })
    const backups = await Promise.all([take(), take(), take()])
    const files = backups.map((backup) => `${backup.id}.zip`).sort()
    expect(files).toEqual([
      '20261121T010000Z-auto-c.zip',
      '20261121T010000Z.001-auto-c.zip',
      '20261121T010000Z.002-auto-c.zip',
    ])
    expect(readdirSync(ws.paths.backups).sort()).toEqual(files)
  })

  it('stores small notes and deflates large ones', async () => {
    const ws = makeWorkspace(NOTES)
    const backup = await backupOf(ws)
    const zip = await openPromise(backup.file)
    const methods: Record<string, number> = {}
    for await (const entry of zip.eachEntry()) methods[entry.fileName] = entry.compressionMethod
    expect(methods['notes/memory/user.md']).toBe(0)
    expect(methods['notes/memory/project.md']).toBe(8)
    expect(backup.bytes).toBeLessThan(Buffer.byteLength(NOTES['notes/memory/project.md'] ?? '') / 4)
  })
})
