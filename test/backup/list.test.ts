import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBackup } from '../../src/backup/create.js'
import { findBackup, listBackups } from '../../src/backup/list.js'
import { BackupNotFoundError } from '../../src/errors.js'
import { fixedClock } from '../helpers/clock.js'
import { makeWorkspace } from '../helpers/workspace.js'

describe('listBackups', () => {
  it('lists backups newest first with fields read from the names and sizes from stat', async () => {
    const ws = makeWorkspace({ 'notes/memory/MEMORY.md': '- user\n' })
    const clock = fixedClock('2026-11-20T01:00:00Z')
    const first = await createBackup({ paths: ws.paths, mode: 'auto', chatJid: 'group@g.us', clock, keep: 5 })
    clock.set('2026-11-21T09:30:15Z')
    const second = await createBackup({ paths: ws.paths, mode: 'manual', chatJid: 'web:1', clock, keep: 10 })
    writeFileSync(join(ws.paths.backups, '.backup-abc.zip.tmp'), 'in progress')
    expect(await listBackups(ws.paths)).toEqual([
      {
        id: '20261121T093015Z-manual-web_1',
        file: second.file,
        createdAt: '2026-11-21T09:30:15.000Z',
        mode: 'manual',
        chatJid: 'web_1',
        bytes: statSync(second.file).size,
      },
      {
        id: '20261120T010000Z-auto-group_g.us',
        file: first.file,
        createdAt: '2026-11-20T01:00:00.000Z',
        mode: 'auto',
        chatJid: 'group_g.us',
        bytes: statSync(first.file).size,
      },
    ])
  })

  it('is empty when no backup was ever taken', async () => {
    expect(await listBackups(makeWorkspace().paths)).toEqual([])
  })
})

describe('findBackup', () => {
  it.each(['20261121T010000Z-manual-nope', '../20261121T010000Z-manual-c', 'not-an-id', ''])(
    'refuses unknown or malformed id %j with BackupNotFoundError',
    async (id) => {
      const ws = makeWorkspace({ 'notes/memory/MEMORY.md': '- user\n' })
      const clock = fixedClock('2026-11-21T01:00:00Z')
      await createBackup({ paths: ws.paths, mode: 'manual', chatJid: 'c', clock, keep: 10 })
      await expect(findBackup(ws.paths, id)).rejects.toBeInstanceOf(BackupNotFoundError)
    },
  )
})
