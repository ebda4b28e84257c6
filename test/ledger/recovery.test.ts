import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readStage } from '../../src/ledger/stage.js'
import { HALF_MEMORY, makeLedgerWorld, writesFiles } from './world.js'

const MEMORY = 'notes/memory/MEMORY.md'

/** Puts the workspace back into the state a crash between "marked held" and "files put back" leaves. */
function crashBeforePutBack(
  dataDir: string,
  runId: string,
  write: (rel: string, content: string) => void,
): void {
  const file = join(dataDir, 'staged', runId, 'stage.json')
  const stage = JSON.parse(readFileSync(file, 'utf8')) as { settled: boolean }
  writeFileSync(file, JSON.stringify({ ...stage, settled: false }))
  write(MEMORY, HALF_MEMORY)
}

describe('crash safety of holding', () => {
  it('start-up recovery puts the notes of a run that crashed while being held back, and keeps it held', async () => {
    const world = await makeLedgerWorld()
    const before = world.snapshot()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const held = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    crashBeforePutBack(world.paths.dataDir, held.id, world.write)
    expect(world.snapshot()).not.toEqual(before)

    await dreamlane.recover()
    expect(world.snapshot()).toEqual(before)
    expect((await readStage(world.paths, held.id))?.settled).toBe(true)
    expect(dreamlane.runs.get(held.id).status).toBe('held')
    // Still reviewable afterwards.
    await dreamlane.apply(held.id)
    expect(world.read(MEMORY)).toBe(HALF_MEMORY)
    await dreamlane.close()
  })

  it('a run lost before it was marked held gets its notes put back and its stage removed', async () => {
    const world = await makeLedgerWorld()
    const before = world.snapshot()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const held = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    crashBeforePutBack(world.paths.dataDir, held.id, world.write)
    dreamlane.runs.close(held.id, {
      status: 'lost',
      reason: 'the process running it stopped before it finished',
    })

    await dreamlane.recover()
    expect(world.snapshot()).toEqual(before)
    expect(await readStage(world.paths, held.id)).toBeNull()
    await dreamlane.close()
  })

  it('discard also finishes putting back a half-held run', async () => {
    const world = await makeLedgerWorld()
    const before = world.snapshot()
    const dreamlane = world.open({ provider: writesFiles({ [MEMORY]: HALF_MEMORY }) })
    const held = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    crashBeforePutBack(world.paths.dataDir, held.id, world.write)
    const result = await dreamlane.discard()
    expect(result.written).toEqual([MEMORY])
    expect(world.snapshot()).toEqual(before)
    await dreamlane.close()
  })
})
