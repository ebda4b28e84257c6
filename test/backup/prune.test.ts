import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBackup } from '../../src/backup/create.js'
import { listBackups } from '../../src/backup/list.js'
import { pruneBackups } from '../../src/backup/prune.js'
import { fixedClock } from '../helpers/clock.js'
import { makeWorkspace, type TestWorkspace } from '../helpers/workspace.js'

const HOUR_MS = 3_600_000

async function makeBackups(ws: TestWorkspace, count: number, keep: number): Promise<string[]> {
  const clock = fixedClock('2026-11-01T01:00:00Z')
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    ids.push((await createBackup({ paths: ws.paths, mode: 'auto', chatJid: 'c', clock, keep })).id)
    clock.advanceMs(HOUR_MS)
  }
  return ids
}

describe('pruneBackups', () => {
  it('keeps the newest 10 of 12 backups', async () => {
    const ws = makeWorkspace({ 'notes/memory/MEMORY.md': '- user\n' })
    const ids = await makeBackups(ws, 12, 10)
    expect((await listBackups(ws.paths)).map((b) => b.id)).toEqual(ids.slice(2).reverse())
    expect(readdirSync(ws.paths.backups)).toHaveLength(10)
  })

  it('keeps only the newest with keep=1', async () => {
    const ws = makeWorkspace({ 'notes/memory/MEMORY.md': '- user\n' })
    const ids = await makeBackups(ws, 3, 1)
    expect(readdirSync(ws.paths.backups)).toEqual([`${ids[2]}.zip`])
  })

  it('returns the removed ids, treats keep below 1 as 1 and ignores files that are not backups', async () => {
    const ws = makeWorkspace({ 'notes/memory/MEMORY.md': '- user\n' })
    const ids = await makeBackups(ws, 3, 10)
    writeFileSync(join(ws.paths.backups, 'README.txt'), 'mine')
    writeFileSync(join(ws.paths.backups, 'holiday.zip'), 'also mine')
    expect(await pruneBackups(ws.paths, 0)).toEqual([ids[1], ids[0]])
    expect(readdirSync(ws.paths.backups).sort()).toEqual([`${ids[2]}.zip`, 'README.txt', 'holiday.zip'])
  })

  it('never removes protected ids', async () => {
    const ws = makeWorkspace({ 'notes/memory/MEMORY.md': '- user\n' })
    const ids = await makeBackups(ws, 4, 10)
    expect(await pruneBackups(ws.paths, 2, [ids[0] as string])).toEqual([ids[1]])
    expect((await listBackups(ws.paths)).map((b) => b.id)).toEqual([ids[3], ids[2], ids[0]])
  })

  it('does nothing when there is no backups folder yet', async () => {
    const ws = makeWorkspace()
    expect(await pruneBackups(ws.paths, 1)).toEqual([])
  })
})
