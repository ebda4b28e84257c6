import { describe, expect, it } from 'vitest'
import { createProgressBar, renderProgress } from '../../src/import/progress.js'
import type { ImportProgress } from '../../src/import/types.js'

const tick = (phase: ImportProgress['phase'], done: number, total: number, messages = 0): ImportProgress => ({
  phase,
  unit: phase === 'read' ? 'bytes' : 'chats',
  done,
  total,
  messages,
})

describe('import progress', () => {
  it('renders a bar with percentage, amounts and messages', () => {
    expect(renderProgress(tick('read', 3 * 1024 * 1024, 12 * 1024 * 1024, 40112), 8)).toBe(
      'reading  [##------]  25%  3.0 MB/12.0 MB · 40,112 messages',
    )
    expect(renderProgress(tick('write', 3, 3, 9), 4)).toBe('writing  [####] 100%  3/3 chats · 9 messages')
  })

  it('logs one line per 10% step when stderr is not a terminal', () => {
    const lines: string[] = []
    const bar = createProgressBar({ write: (text) => lines.push(text), isTTY: false, nowMs: () => 0 })
    for (let done = 0; done <= 1000; done += 10) bar.update(tick('read', done, 1000))
    bar.update(tick('write', 1, 2))
    bar.update(tick('write', 2, 2))
    bar.finish()
    expect(lines.filter((l) => l.startsWith('reading'))).toHaveLength(11)
    expect(lines.filter((l) => l.startsWith('writing'))).toHaveLength(2)
  })

  it('redraws at most every 100 ms on a terminal, and always on a new phase', () => {
    let now = 0
    const out: string[] = []
    const bar = createProgressBar({ write: (text) => out.push(text), isTTY: true, nowMs: () => now })
    for (let i = 0; i < 50; i++) {
      now += 10
      bar.update(tick('read', i, 50))
    }
    bar.update(tick('write', 0, 1))
    bar.finish()
    const draws = out.filter((text) => text.startsWith('\r'))
    expect(draws.length).toBeGreaterThanOrEqual(6)
    expect(draws.length).toBeLessThanOrEqual(9)
    expect(out.at(-1)).toBe('\n')
  })
})
