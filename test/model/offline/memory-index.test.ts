import { describe, expect, it } from 'vitest'
import { readBlock } from '../../../src/model/offline/block.js'
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
  it('writes file pointers and day pointers newest first inside its block, keeping text around it', () => {
    const existing = `${MEMORY_SKELETONS['MEMORY.md']}\n- my own pointer: [[notes/important]]\n`
    const { text, trimmed, isOverBudget } = renderMemoryIndex(existing, {
      files: FILES,
      days: pointers(0, 3),
      budgetBytes: 6000,
    })
    expect(text.startsWith(existing)).toBe(true)
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

  it('keeps pointers to older days from earlier runs and refreshes the window days', () => {
    const first = renderMemoryIndex('', { files: FILES, days: pointers(0, 3), budgetBytes: 6000 }).text
    const next = renderMemoryIndex(first, {
      files: FILES,
      days: [{ day: '2026-01-03', target: 'days/2026-01-03.md', hook: 'new' }, ...pointers(3, 1)],
      budgetBytes: 6000,
    }).text
    expect(parseDayPointers(next).map((pointer) => `${pointer.day} ${pointer.target}`)).toEqual([
      '2026-01-04 ../daily/2026-01-04.md',
      '2026-01-03 days/2026-01-03.md',
      '2026-01-02 ../daily/2026-01-02.md',
      '2026-01-01 ../daily/2026-01-01.md',
    ])
  })

  it('stays under budget by trimming daily-note pointers oldest first, then day pages, never the newest', () => {
    const daily = pointers(37, 3)
    const days = [...daily, ...pointers(40, 20, 'days')]
    const newest = days.at(-1) as DayPointer
    const { text, trimmed, isOverBudget } = renderMemoryIndex(MEMORY_SKELETONS['MEMORY.md'], {
      files: FILES,
      days,
      budgetBytes: 1500,
    })
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1500)
    expect(isOverBudget).toBe(false)
    expect(text).toContain(`- [${newest.day}](${newest.target}) — ${newest.hook}`)
    // Every daily-note pointer goes before any day page does.
    const kept = parseDayPointers(text)
    expect(kept.every((pointer) => pointer.target.startsWith('days/'))).toBe(true)
    expect(trimmed.slice(0, 3)).toEqual(daily.map((pointer) => pointer.day))
    // The oldest day pages went first.
    expect(kept.map((pointer) => pointer.day)).toEqual(
      days
        .slice(days.length - kept.length)
        .map((pointer) => pointer.day)
        .reverse(),
    )
  })

  it('holds the latest three daily-note pointers however many earlier runs left, and every day page', () => {
    const earlier = renderMemoryIndex('', {
      files: FILES,
      days: [...pointers(0, 10), ...pointers(10, 2, 'days')],
      budgetBytes: 6000,
    }).text
    const next = renderMemoryIndex(earlier, { files: FILES, days: pointers(20, 1), budgetBytes: 6000 })
    expect(parseDayPointers(next.text).map((pointer) => `${pointer.day} ${pointer.target}`)).toEqual([
      '2026-01-21 ../daily/2026-01-21.md',
      '2026-01-12 days/2026-01-12.md',
      '2026-01-11 days/2026-01-11.md',
      '2026-01-10 ../daily/2026-01-10.md',
      '2026-01-09 ../daily/2026-01-09.md',
    ])
    // Falling out of the latest days is not a trim for the budget.
    expect(next.trimmed).toEqual([])
  })

  it('keeps the newest pointer even when only it fits, and reports text outside the block it cannot cut', () => {
    const big = `# Memory\n\n${'a hand-written line that is kept\n'.repeat(40)}`
    const days = pointers(0, 5)
    const result = renderMemoryIndex(big, { files: FILES, days, budgetBytes: 800 })
    expect(result.isOverBudget).toBe(true)
    expect(result.text.startsWith(big)).toBe(true)
    expect(parseDayPointers(result.text).map((pointer) => pointer.day)).toEqual(['2026-01-05'])
  })
})
