import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { listBackups } from '../../src/backup/list.js'
import { HALF_MEMORY, RICH_MEMORY, makeLedgerWorld, writesFiles } from '../ledger/world.js'

const MEMORY = 'notes/memory/MEMORY.md'

describe('dream --dry-run', () => {
  it.each([
    ['a scripted merge that would be kept', { [MEMORY]: `${RICH_MEMORY}- Likes green tea.\n` }, false],
    ['a scripted merge that would be held', { [MEMORY]: HALF_MEMORY }, true],
  ])(
    '%s: touches nothing, and its diff is exactly what the real run then applies',
    async (_name, files, wouldHold) => {
      const world = await makeLedgerWorld()
      const before = world.snapshot()
      const dreamlane = world.open({ provider: writesFiles(files) })
      const backupsBefore = await listBackups(world.paths)

      const dry = await dreamlane.dryRun({ mode: 'manual', chatJid: 'web:main', days: 2 })
      expect(dry.wouldHold).toBe(wouldHold)
      expect(dry.changes.map((c) => c.path)).toEqual([
        'notes/daily/2026-11-20.md',
        'notes/daily/2026-11-21.md',
        MEMORY,
      ])
      expect(world.snapshot()).toEqual(before)
      expect(await listBackups(world.paths)).toEqual(backupsBefore)
      expect(dreamlane.runs.list()).toEqual([])
      expect(dreamlane.messages.listChatMessages('web:main').filter((m) => m.sender === 'dreamlane')).toEqual(
        [],
      )
      expect(dreamlane.messages.listDreamChannels()).toEqual([])
      expect(readdirSync(world.paths.dataDir).filter((name) => name.startsWith('dry-run-'))).toEqual([])

      const real = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
      if (wouldHold) await dreamlane.apply(real.id)
      expect(dreamlane.changes(real.id)).toEqual(dry.changes)
      // …and it is the diff the workspace went through: the after hashes are what is on disk now.
      const now = world.snapshot()
      for (const change of dry.changes) expect(now[change.path]).toBe(change.afterSha256)
      await dreamlane.close()
    },
  )

  it('rehearses the offline engine deterministically: same diff as the real run', async () => {
    const world = await makeLedgerWorld()
    const before = world.snapshot()
    const dreamlane = world.open()
    const dry = await dreamlane.dryRun({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(world.snapshot()).toEqual(before)
    expect(dry.run.provider).toBe('offline')
    expect(dry.changes.length).toBeGreaterThan(2)
    const real = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(real.status).toBe(dry.run.status)
    expect(dreamlane.changes(real.id).map((c) => [c.path, c.diff])).toEqual(
      dry.changes.map((c) => [c.path, c.diff]),
    )
    await dreamlane.close()
  })
})
