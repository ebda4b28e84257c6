// The notes budget in write results: bytes the dream's notes added (front matter and comments not counted).
import { describe, expect, it } from 'vitest'
import { KEY_COMMENT_BYTES, memoryHeldBytes, noteBudgetFor, proseBytes } from '../../src/tools/note-budget.js'
import { createToolSet } from '../../src/tools/tool-set.js'
import { dailyNote, makeToolWorld } from './world.js'

const USER = '# User\n\n## Identity\n'

function budgetWorld(transcriptBytes: number) {
  const world = makeToolWorld({
    'notes/memory/user.md': USER,
    'notes/daily/2026-11-22.md': dailyNote('2026-11-22'),
  })
  return createToolSet(world.context, { noteBudget: noteBudgetFor(transcriptBytes) })
}

describe('the notes budget', () => {
  it('is 30% of the transcript for all notes and 8% for the memory files', () => {
    expect(noteBudgetFor(50_000)).toEqual({ transcriptBytes: 50_000, notesBytes: 15_000, memoryBytes: 4000 })
  })

  it('always lets the memory files add 2,000 bytes, however short the window', () => {
    // the floor adds to the memory files' share, so the daily notes keep their 22%
    expect(noteBudgetFor(1_051)).toEqual({ transcriptBytes: 1_051, notesBytes: 2231, memoryBytes: 2000 })
    expect(noteBudgetFor(10_000)).toEqual({ transcriptBytes: 10_000, notesBytes: 4200, memoryBytes: 2000 })
  })

  it('counts what the memory files hold against their share, never below the floor', () => {
    // 8% of 50,000 is 4,000: files holding 1,500 leave 2,500 to add, and the daily notes keep their 22%
    expect(noteBudgetFor(50_000, 1_500)).toEqual({
      transcriptBytes: 50_000,
      notesBytes: 13_500,
      memoryBytes: 2500,
    })
    expect(noteBudgetFor(50_000, 3_900).memoryBytes).toBe(2000)
  })

  it('reads what the memory files hold: their prose and a key comment for each fact bullet', async () => {
    const world = makeToolWorld({
      'notes/memory/user.md': `${USER}- **City: Porto** [[2026-11-22]] <!-- key: user.city -->\n- plain line\n`,
      'notes/memory/MEMORY.md': '# Memory\n- **not a fact file** pointer\n',
    })
    const user = proseBytes(`${USER}- **City: Porto** [[2026-11-22]] \n- plain line\n`)
    const index = Buffer.byteLength('# Memory\n- **not a fact file** pointer\n')
    expect(await memoryHeldBytes(world.context.paths.memory)).toBe(user + KEY_COMMENT_BYTES + index)
  })

  it('counts a note without its front matter and HTML comments', () => {
    const body = '# Sunday\n\nSummary text.\n'
    expect(proseBytes(`---\ndate: '2026-11-22'\n---\n${body}<!-- DREAM_CUES\nlots\nDREAM_CUES -->\n`)).toBe(
      Buffer.byteLength(`${body}\n`),
    )
  })

  it('reports what every write added so far against both budgets, and MEMORY.md against its own', async () => {
    const tools = budgetWorld(10_000)
    const fact = '- **City: Porto** — moved in May [[2026-11-22]] <!-- key: user.city; value: Porto -->\n'
    const first = await tools.call('write_file', {
      path: 'notes/memory/user.md',
      content: `${USER}\n${fact}`,
    })
    // a fact bullet costs its prose and the key comment the runtime gives it (here already written)
    const added = proseBytes(`${USER}\n${fact}`) - proseBytes(USER) + KEY_COMMENT_BYTES
    expect(first.content).toContain(
      `; notes added this dream: ${added} of 4,200 bytes (memory files ${added} of 2,000)`,
    )
    const daily = dailyNote('2026-11-22', 'x'.repeat(4500))
    const second = await tools.call('write_file', { path: 'notes/daily/2026-11-22.md', content: daily })
    const dailyAdded = proseBytes(daily) - proseBytes(dailyNote('2026-11-22'))
    expect(second.content).toContain(
      `notes added this dream: ${(added + dailyAdded).toLocaleString('en-US')} of 4,200 bytes (memory files ${added} of 2,000) — over budget`,
    )
    const index = await tools.call('write_file', { path: 'notes/memory/MEMORY.md', content: '# Memory\n' })
    expect(index.content).toMatch(/; MEMORY\.md 9 of 6,000 bytes/)
  })

  it('adds nothing to write results outside a dream with a budget', async () => {
    const world = makeToolWorld({ 'notes/memory/user.md': USER })
    const result = await createToolSet(world.context).call('write_file', {
      path: 'notes/memory/user.md',
      content: `${USER}- x\n`,
    })
    expect(result.content).toBe(`wrote notes/memory/user.md (${Buffer.byteLength(`${USER}- x\n`)} bytes)`)
  })
})
