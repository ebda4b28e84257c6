// Promotion end to end: real searches over several days, scoring, and appends to MEMORY.md under the lock.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { acquireLock } from '../../src/notes/lock.js'
import { LockHeldError } from '../../src/errors.js'
import { markerIdOf, markersIn } from '../../src/recall/memory-block.js'
import { applyPromotion, planPromotion, promoteMemory } from '../../src/recall/promote.js'
import { memoryCounts } from '../../src/recall/status.js'
import { makeRecallWorld } from './world.js'

type World = ReturnType<typeof makeRecallWorld>

/** Maya's line is searched for on four days with four phrasings; the kite shop in one burst; Atlas once. */
async function simulateWeek(world: World): Promise<void> {
  const plan: [day: string, queries: string[]][] = [
    ['2026-11-10', ['Porto']],
    ['2026-11-11', ['lives in Porto']],
    ['2026-11-13', ['Maya Porto', 'Atlas deadline']],
    ['2026-11-15', ['sister Porto', 'kite', 'kite shop', 'kite']],
  ]
  for (const [day, queries] of plan) {
    world.clock.set(`${day}T10:00:00Z`)
    for (const query of queries) await world.search(query)
  }
  world.clock.set('2026-11-16T08:00:00Z')
}

const memoryFile = (world: World) => join(world.paths.memory, 'MEMORY.md')
const readMemory = (world: World) => readFileSync(memoryFile(world), 'utf8')
const deps = (world: World) => ({
  state: world.state,
  paths: world.paths,
  config: world.config,
  clock: world.clock,
})

describe('memory promote', () => {
  it('promotes the chunk recalled across days and queries, not the burst or the one-off', async () => {
    const world = makeRecallWorld()
    await simulateWeek(world)
    const plan = planPromotion(world.state, { now: world.clock.now(), settings: world.config.recall })
    const gates = Object.fromEntries(plan.candidates.map((c) => [c.excerpt.slice(0, 12), c.gate]))
    expect(gates).toEqual({
      '- Maya is Al': 'pass',
      '- Sam runs t': 'min-score',
      'The Atlas la': 'min-recalls',
    })
    expect(plan.selected.map((c) => c.path)).toEqual(['notes/people.md'])
    const { applied } = await promoteMemory(deps(world), { apply: true })
    expect(applied?.written).toHaveLength(1)
    const text = readMemory(world)
    // Dated (the local day it was promoted) and scored (the plan's score, two decimals).
    const score = plan.selected[0]!.score.toFixed(2)
    expect(text).toContain(
      `- Maya is Alex's sister and lives in Porto — [notes/people.md:3](../people.md) (2026-11-16, score ${score}) <!-- recall:`,
    )
    expect(text).toContain('## Promoted from recall')
    expect(text).not.toMatch(/kite|Atlas/)
    expect(text.startsWith('# Memory\n\n- [user.md](user.md): who Alex is\n')).toBe(true)
  })

  it('writes once when applied twice, by the ledger and by the marker', async () => {
    const world = makeRecallWorld()
    await simulateWeek(world)
    const plan = planPromotion(world.state, { now: world.clock.now(), settings: world.config.recall })
    await applyPromotion(plan, deps(world))
    const once = readMemory(world)
    // The same stale plan again: the marker already in MEMORY.md stops it.
    const replay = await applyPromotion(plan, deps(world))
    expect(replay.written).toEqual([])
    expect(replay.skipped.map((s) => s.reason)).toEqual(['already-in-memory'])
    // A fresh run: the promotions ledger gates it before MEMORY.md is even read.
    const rerun = await promoteMemory(deps(world), { apply: true })
    expect(rerun.plan.selected).toEqual([])
    expect(rerun.applied?.written).toEqual([])
    expect(readMemory(world)).toBe(once)
    expect(markersIn(once).size).toBe(1)
    const listed = planPromotion(world.state, {
      now: world.clock.now(),
      settings: world.config.recall,
      includePromoted: true,
    })
    expect(listed.candidates.find((c) => c.path === 'notes/people.md')?.gate).toBe('promoted')
    expect(
      planPromotion(world.state, { now: world.clock.now(), settings: world.config.recall }).candidates,
    ).toHaveLength(2)
  })

  it('keeps an edit made to MEMORY.md between scoring and apply', async () => {
    const world = makeRecallWorld()
    await simulateWeek(world)
    const plan = planPromotion(world.state, { now: world.clock.now(), settings: world.config.recall })
    writeFileSync(memoryFile(world), `${readMemory(world)}- Alex edited this line meanwhile\n`)
    const result = await applyPromotion(plan, deps(world))
    expect(result.written).toHaveLength(1)
    const text = readMemory(world)
    expect(text).toContain('- Alex edited this line meanwhile\n')
    expect(text).toContain(`<!-- recall:${markerIdOf(plan.selected[0]?.chunkKey ?? '')} -->`)
  })

  it('stays within memory.indexBudgetBytes, leaving existing text alone', async () => {
    const filler = `# Memory\n\n${'- an existing pointer line that takes space\n'.repeat(10)}`
    const world = makeRecallWorld()
    await simulateWeek(world)
    const budget = Buffer.byteLength(filler) + 60
    writeFileSync(memoryFile(world), filler)
    const tight = { ...world.config, memory: { ...world.config.memory, indexBudgetBytes: budget } }
    const { applied } = await promoteMemory({ ...deps(world), config: tight }, { apply: true })
    expect(applied?.written).toEqual([])
    expect(applied?.skipped.map((s) => s.reason)).toEqual(['over-budget'])
    expect(readMemory(world)).toBe(filler)
    // Room for it: written, and the file still fits.
    const roomy = { ...world.config, memory: { ...world.config.memory, indexBudgetBytes: budget + 200 } }
    const second = await promoteMemory({ ...deps(world), config: roomy }, { apply: true })
    expect(second.applied?.written).toHaveLength(1)
    expect(Buffer.byteLength(readMemory(world))).toBeLessThanOrEqual(budget + 200)
  })

  it('skips a chunk whose source text was edited away, and follows one that only moved', async () => {
    const world = makeRecallWorld()
    await simulateWeek(world)
    const people = join(world.paths.workspace, 'notes/people.md')
    const original = readFileSync(people, 'utf8')
    writeFileSync(people, original.replace('lives in Porto', 'moved to Lisbon'))
    const gone = await promoteMemory(deps(world), { apply: true })
    expect(gone.applied?.skipped.map((s) => s.reason)).toEqual(['source-changed'])
    writeFileSync(people, `intro line\n\n${original}`)
    const moved = await promoteMemory(deps(world), { apply: true })
    expect(moved.applied?.written[0]?.entry).toContain('[notes/people.md:5](../people.md)')
  })

  it('refuses while another holder has the workspace lock, writing nothing', async () => {
    const world = makeRecallWorld()
    await simulateWeek(world)
    const before = readMemory(world)
    const held = await acquireLock({
      file: world.paths.lockFile,
      runId: 'dream-1',
      clock: world.clock,
      staleAfterMs: 60_000,
    })
    try {
      await expect(promoteMemory(deps(world), { apply: true })).rejects.toBeInstanceOf(LockHeldError)
    } finally {
      await held.release()
    }
    expect(readMemory(world)).toBe(before)
    expect(memoryCounts(world.state, world.clock, world.config).promoted).toBe(0)
  })

  it('needs no lock when nothing passes (a dream may hold it meanwhile)', async () => {
    const world = makeRecallWorld()
    await world.search('kite')
    const held = await acquireLock({
      file: world.paths.lockFile,
      runId: 'dream-1',
      clock: world.clock,
      staleAfterMs: 60_000,
    })
    try {
      const { applied } = await promoteMemory(deps(world), { apply: true })
      expect(applied).toMatchObject({ written: [], skipped: [], bytes: Buffer.byteLength(readMemory(world)) })
    } finally {
      await held.release()
    }
  })

  it('respects --limit and lists the gate of every other candidate', async () => {
    const world = makeRecallWorld()
    await simulateWeek(world)
    const loose = { ...world.config.recall, minScore: 0.1, minRecallCount: 1, minUniqueQueries: 1 }
    const plan = planPromotion(world.state, { now: world.clock.now(), settings: loose, limit: 2 })
    expect(plan.gates.pass).toBe(3)
    expect(plan.selected.map((c) => c.path)).toEqual(['notes/people.md', 'notes/people.md'])
    expect(plan.selected[0]?.score).toBeGreaterThanOrEqual(plan.selected[1]?.score ?? 1)
  })
})
