import { chmodSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NoteReadOnlyError } from '../../src/errors.js'
import { listBackups } from '../../src/backup/list.js'
import { readBackupFiles } from '../../src/backup/verify.js'
import { HALF_MEMORY, RICH_MEMORY, makeLedgerWorld, writesFiles } from '../ledger/world.js'

const MEMORY = 'notes/memory/MEMORY.md'
const GROWN = `${RICH_MEMORY}- Likes green tea. [[2026-11-21]]\n`

describe('undo', () => {
  it('/dream undo after an applied run restores every file byte for byte and is recorded as a run', async () => {
    const world = await makeLedgerWorld()
    const before = world.snapshot()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const dream = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await dreamlane.apply(dream.id)
    expect(world.snapshot()).not.toEqual(before)

    const reply = await dreamlane.handleChatInput('web:main', '/dream undo')
    expect(reply).toMatch(new RegExp(`^Undid dream ${dream.id}: 3 files changed, \\+3 −\\d+\\.$`))
    expect(world.snapshot()).toEqual(before)
    expect(world.read(MEMORY)).toBe(RICH_MEMORY)

    const [undo] = dreamlane.runs.list({ kind: 'undo' })
    expect(undo).toMatchObject({ kind: 'undo', undoOf: dream.id, status: 'succeeded', summary: reply })
    expect(dreamlane.runs.get(dream.id)).toMatchObject({ status: 'undone', undoneBy: undo?.id })
    // The undo's own ledger is the dream's, reversed: the seeded daily notes go, MEMORY.md gets its lines back.
    const changes = dreamlane.changes(undo?.id ?? '')
    expect(changes.map((c) => [c.path, c.change])).toEqual([
      ['notes/daily/2026-11-20.md', 'removed'],
      ['notes/daily/2026-11-21.md', 'removed'],
      [MEMORY, 'modified'],
    ])
    expect(changes.find((c) => c.path === MEMORY)).toMatchObject({ linesAdded: 3, linesRemoved: 0 })
    // An undo does not count as a consolidation, and what was undone cannot be undone twice.
    expect(dreamlane.runs.lastSucceeded()).toBeNull()
    expect(await dreamlane.handleChatInput('web:main', `/dream undo ${dream.id}`)).toMatch(
      /was already undone \(by undo-/,
    )
    await dreamlane.close()
  })

  it('refuses when a changed file was edited since, shows the edit; --force restores after a safety backup', async () => {
    const world = await makeLedgerWorld()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: GROWN }) })
    const dream = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(dream.status).toBe('succeeded')
    expect(dream.summary).toContain(`undo it with \`/dream undo\` (\`dreamlane runs undo ${dream.id}\`)`)
    const edited = `${GROWN}- Moved the dentist to Fridays.\n`
    world.write(MEMORY, edited)

    const reply = await dreamlane.handleChatInput('web:main', '/dream undo')
    expect(reply).toMatch(/^cannot undo run-.*: 1 file\(s\) were changed after it/)
    expect(reply).toContain(`notes/memory/MEMORY.md was edited after dream ${dream.id}.`)
    expect(reply).toContain('+- Moved the dentist to Fridays.')
    expect(reply).toContain('--force')
    expect(world.read(MEMORY)).toBe(edited)
    expect(dreamlane.runs.get(dream.id).status).toBe('succeeded')
    expect(dreamlane.runs.list({ kind: 'undo' })).toEqual([])

    const forced = await dreamlane.undo(dream.id, { force: true })
    expect(forced.overwritten).toEqual([MEMORY])
    expect(world.read(MEMORY)).toBe(RICH_MEMORY)
    const safety = (await listBackups(world.paths)).find((backup) => backup.id === forced.safetyBackupId)
    expect(safety?.mode).toBe('undo')
    const saved = await readBackupFiles(safety?.file ?? '')
    expect(saved.get(MEMORY)?.toString('utf8')).toBe(edited)
    expect(forced.run.backupId).toBe(forced.safetyBackupId)
    await dreamlane.close()
  })

  it('explains why a held, discarded or unknown run cannot be undone', async () => {
    const world = await makeLedgerWorld()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const held = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await expect(dreamlane.undo(held.id)).rejects.toThrow(
      /is held for review and wrote nothing; discard it instead/,
    )
    expect(await dreamlane.handleChatInput('web:main', '/dream undo')).toBe(
      'no kept dream with changes to undo',
    )
    await dreamlane.discard(held.id)
    await expect(dreamlane.undo(held.id)).rejects.toThrow(/is discarded; only a kept dream/)
    await expect(dreamlane.undo('run-nope')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' })
    await dreamlane.close()
  })

  it("uses the same writer as dreams: keeps a note's mode, and refuses a read-only one before changing anything", async () => {
    const world = await makeLedgerWorld()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const dream = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await dreamlane.apply(dream.id)
    const memory = join(world.dir, MEMORY)
    const afterDream = world.snapshot()
    chmodSync(memory, 0o444)
    await expect(dreamlane.undo(dream.id)).rejects.toBeInstanceOf(NoteReadOnlyError)
    expect(world.snapshot()).toEqual(afterDream)
    chmodSync(memory, 0o600)
    await dreamlane.undo(dream.id)
    expect(world.read(MEMORY)).toBe(RICH_MEMORY)
    expect(statSync(memory).mode & 0o777).toBe(0o600)
    await dreamlane.close()
  })
})
