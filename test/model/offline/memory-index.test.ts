import { describe, expect, it } from 'vitest'
import { outsideBlock, readBlock } from '../../../src/notes/owned-block.js'
import {
  parseDayPointers,
  renderMemoryIndex,
  type DayPointer,
} from '../../../src/model/offline/memory-index.js'
import { MEMORY_SKELETONS } from '../../../src/model/offline/skeletons.js'

const FILES = [
  { name: 'user.md', description: 'who the user is: Maya Ortega, Porto (9 facts)' },
  { name: 'project.md', description: 'decisions, plans, deadlines (4 entries)' },
]

function pointers(from: number, count: number, target = 'daily'): DayPointer[] {
  return Array.from({ length: count }, (_, index) => {
    const day = `2026-${String(Math.floor((from + index) / 28) + 1).padStart(2, '0')}-${String(((from + index) % 28) + 1).padStart(2, '0')}`
    return {
      day,
      target: target === 'daily' ? `../daily/${day}.md` : `days/${day}.md`,
      hook: `Atlas standup, Porto flat hunt and ${index} more things`,
    }
  })
}

describe('renderMemoryIndex', () => {
  it('writes file pointers and day-page pointers newest first inside its block, keeping text around it', () => {
    const existing = `${MEMORY_SKELETONS['MEMORY.md']}\n- my own pointer: [[notes/important]]\n`
    const { text, trimmed, isOverBudget } = renderMemoryIndex(existing, {
      files: FILES,
      days: pointers(0, 3, 'days'),
      budgetBytes: 6000,
    })
    // The block is filled where the template put it; every line around it stays.
    expect(outsideBlock(text, 'index')).toBe(outsideBlock(existing, 'index'))
    expect(text.endsWith('- my own pointer: [[notes/important]]\n')).toBe(true)
    expect(trimmed).toEqual([])
    expect(isOverBudget).toBe(false)
    expect(parseDayPointers(text).map((pointer) => pointer.day)).toEqual([
      '2026-01-03',
      '2026-01-02',
      '2026-01-01',
    ])
    expect(readBlock(text, 'index')).toContain(
      '- [user.md](user.md) — who the user is: Maya Ortega, Porto (9 facts)',
    )
  })

  it('keeps day pages from earlier runs and refreshes the window’s', () => {
    const first = renderMemoryIndex('', {
      files: FILES,
      days: pointers(0, 3, 'days'),
      budgetBytes: 6000,
    }).text
    const next = renderMemoryIndex(first, {
      files: FILES,
      days: [{ day: '2026-01-03', target: 'days/2026-01-03.md', hook: 'new' }, ...pointers(3, 1, 'days')],
      budgetBytes: 6000,
    }).text
    expect(parseDayPointers(next).map((pointer) => `${pointer.day} ${pointer.hook}`)).toEqual([
      '2026-01-04 Atlas standup, Porto flat hunt and 0 more things',
      '2026-01-03 new',
      '2026-01-02 Atlas standup, Porto flat hunt and 1 more things',
      '2026-01-01 Atlas standup, Porto flat hunt and 0 more things',
    ])
  })

  it('points at no daily note: an older index’s daily-note pointers go, unreported, and recent-context is named', () => {
    const older = [
      '<!-- dreamlane:begin index -->',
      '## Days',
      '',
      ...pointers(0, 10).map((pointer) => `- [${pointer.day}](${pointer.target}) — ${pointer.hook}`),
      '<!-- dreamlane:end index -->',
    ].join('\n')
    const next = renderMemoryIndex(older, { files: FILES, days: pointers(20, 1), budgetBytes: 6000 })
    expect(parseDayPointers(next.text)).toEqual([])
    expect(next.trimmed).toEqual([])
    expect(readBlock(next.text, 'index')).toContain('[recent-context.md](recent-context.md)')
    // Day pages stay beside them.
    const paged = renderMemoryIndex(older, { files: FILES, days: pointers(20, 2, 'days'), budgetBytes: 6000 })
    expect(parseDayPointers(paged.text).map((pointer) => pointer.target)).toEqual([
      'days/2026-01-22.md',
      'days/2026-01-21.md',
    ])
  })

  it('stays under budget by trimming the oldest day pages first, never the newest', () => {
    const days = pointers(40, 20, 'days')
    const newest = days.at(-1) as DayPointer
    const { text, trimmed, isOverBudget } = renderMemoryIndex(MEMORY_SKELETONS['MEMORY.md'], {
      files: FILES,
      days,
      budgetBytes: 1500,
    })
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1500)
    expect(isOverBudget).toBe(false)
    expect(text).toContain(`- [${newest.day}](${newest.target}) — ${newest.hook}`)
    const kept = parseDayPointers(text)
    expect(trimmed.length).toBeGreaterThan(0)
    expect(trimmed).toEqual(days.slice(0, trimmed.length).map((pointer) => pointer.day))
    expect(kept.map((pointer) => pointer.day)).toEqual(
      days
        .slice(days.length - kept.length)
        .map((pointer) => pointer.day)
        .reverse(),
    )
  })

  it('keeps the newest pointer even when only it fits, and reports text outside the block it cannot cut', () => {
    const big = `# Memory\n\n${'a hand-written line that is kept\n'.repeat(40)}`
    const days = pointers(0, 5, 'days')
    const result = renderMemoryIndex(big, { files: FILES, days, budgetBytes: 800 })
    expect(result.isOverBudget).toBe(true)
    expect(result.text.startsWith(big)).toBe(true)
    expect(parseDayPointers(result.text).map((pointer) => pointer.day)).toEqual(['2026-01-05'])
  })
})
