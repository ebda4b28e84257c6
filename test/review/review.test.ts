import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HALF_MEMORY, RICH_MEMORY, makeLedgerWorld, writesFiles } from '../ledger/world.js'

const MEMORY = 'notes/memory/MEMORY.md'

describe('review before apply', () => {
  it('holds a turn that deletes half of MEMORY.md (on-risk): workspace unchanged, result staged, summary asks for review', async () => {
    const world = await makeLedgerWorld()
    const before = world.snapshot()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })

    expect(run.status).toBe('held')
    expect(run.heldOutcome).toBe('succeeded')
    expect(world.snapshot()).toEqual(before)
    expect(run.lossFlags.map((flag) => flag.term)).toEqual(
      expect.arrayContaining(['Tomás', 'Fernwood', 'Porto']),
    )
    expect(run.holdReasons.join(' ')).toMatch(/would vanish from memory/)
    // The ledger holds what applying would do: MEMORY.md and the seeded daily notes.
    const changes = dreamlane.changes(run.id)
    expect(changes.map((c) => c.path)).toEqual([
      'notes/daily/2026-11-20.md',
      'notes/daily/2026-11-21.md',
      MEMORY,
    ])
    expect(changes.find((c) => c.path === MEMORY)).toMatchObject({
      change: 'modified',
      linesAdded: 0,
      linesRemoved: 3,
    })
    expect(existsSync(join(world.paths.dataDir, 'staged', run.id, 'stage.json'))).toBe(true)
    const posted = dreamlane.messages.listChatMessages('web:main').filter((m) => m.sender === 'dreamlane')
    expect(posted.at(-1)?.content).toMatch(/Dream ready for review: 3 files changed, \+\d+ −3/)
    expect(posted.at(-1)?.content).toContain('`/dream apply` or drop it with `/dream discard`')
    expect(dreamlane.runs.lastSucceeded()).toBeNull()
    await dreamlane.close()
  })

  it('/dream apply writes the staged result and the run counts as succeeded', async () => {
    const world = await makeLedgerWorld()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const held = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const reply = await dreamlane.handleChatInput('web:main', '/dream apply')

    expect(reply).toBe(`Applied dream ${held.id}: 3 file(s) written. Undo it with \`/dream undo\`.`)
    expect(world.read(MEMORY)).toBe(HALF_MEMORY)
    expect(world.read('notes/daily/2026-11-21.md')).toContain('DREAM_CUES')
    expect(dreamlane.runs.get(held.id)).toMatchObject({ status: 'succeeded', reviewedAt: expect.any(String) })
    expect(dreamlane.runs.lastSucceeded()?.id).toBe(held.id)
    expect(existsSync(join(world.paths.dataDir, 'staged', held.id))).toBe(false)
    expect(await dreamlane.handleChatInput('web:main', '/dream apply')).toMatch(
      /no dream is waiting for review/,
    )
    await dreamlane.close()
  })

  it('refuses to apply when MEMORY.md was edited after the run started, and explains with a diff', async () => {
    const world = await makeLedgerWorld()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const held = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const edited = `${RICH_MEMORY}- Allergic to penicillin.\n`
    world.write(MEMORY, edited)
    const daily = join(world.paths.daily, '2026-11-21.md')
    expect(existsSync(daily)).toBe(false)

    const reply = await dreamlane.handleChatInput('web:main', `/dream apply ${held.id}`)
    expect(reply).toMatch(/^cannot apply run-.*: 1 file\(s\) changed after the dream read them/)
    expect(reply).toContain('notes/memory/MEMORY.md was edited since dream')
    expect(reply).toContain('+- Allergic to penicillin.')
    expect(reply).toMatch(/Nothing was written\. Dream again/)
    expect(world.read(MEMORY)).toBe(edited)
    // All or nothing: the daily notes the run would have seeded were not written either.
    expect(existsSync(daily)).toBe(false)
    expect(dreamlane.runs.get(held.id).status).toBe('held')

    expect(await dreamlane.handleChatInput('web:main', '/dream discard')).toBe(
      `Discarded dream ${held.id}; your notes stay as they were.`,
    )
    expect(world.read(MEMORY)).toBe(edited)
    expect(dreamlane.runs.get(held.id).status).toBe('discarded')
    await dreamlane.close()
  })

  it('discard leaves every file as it was and removes the stage', async () => {
    const world = await makeLedgerWorld()
    const before = world.snapshot()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const held = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const result = await dreamlane.discard()
    expect(result.run).toMatchObject({ id: held.id, status: 'discarded' })
    expect(world.snapshot()).toEqual(before)
    expect(readdirSync(join(world.paths.dataDir, 'staged'))).toEqual([])
    await expect(dreamlane.apply(held.id)).rejects.toMatchObject({ code: 'RUN_NOT_REVIEWABLE' })
    await dreamlane.close()
  })

  it('review "always" holds even a harmless run; "never" keeps a risky one but still flags it', async () => {
    const world = await makeLedgerWorld()
    const harmless = `${RICH_MEMORY}- Likes green tea.\n`
    const always = world.open({ review: 'always', provider: writesFiles({ [MEMORY]: harmless }) })
    const held = await always.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(held).toMatchObject({ status: 'held', holdReasons: ['review is set to "always"'], lossFlags: [] })
    expect(world.read(MEMORY)).toBe(RICH_MEMORY)
    await always.discard()
    await always.close()

    const never = world.open({ review: 'never', provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const kept = await never.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(kept.status).toBe('succeeded')
    expect(world.read(MEMORY)).toBe(HALF_MEMORY)
    expect(kept.lossFlags.length).toBeGreaterThan(3)
    expect(kept.summary).toMatch(
      /Loss guard: \d+ item\(s\) vanished from memory: .*Tomás \(name, notes\/memory\/MEMORY\.md\)/,
    )
    await never.close()
  })

  it('an interrupted apply (one file already written) can be repeated and finishes', async () => {
    const world = await makeLedgerWorld()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const held = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    world.write(MEMORY, HALF_MEMORY) // as if a crash hit after the first file of the apply
    const result = await dreamlane.apply(held.id)
    expect(result.unchanged).toEqual([MEMORY])
    expect(result.written).toEqual(['notes/daily/2026-11-20.md', 'notes/daily/2026-11-21.md'])
    expect(dreamlane.runs.get(held.id).status).toBe('succeeded')
    await dreamlane.close()
  })
})
