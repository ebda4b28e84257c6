import { describe, expect, it } from 'vitest'
import { readBlock, writeBlock } from '../../../src/model/offline/block.js'
import { renderCurrentState } from '../../../src/model/offline/current-state.js'
import { renderDayPage } from '../../../src/model/offline/day-pages.js'
import { isImportantDay } from '../../../src/model/offline/digest.js'
import { recurringTopics, renderRecentContext } from '../../../src/model/offline/recent-context.js'
import { MEMORY_SKELETONS } from '../../../src/model/offline/skeletons.js'
import type { WindowMessage } from '../../../src/model/offline/types.js'
import { fact } from './facts.js'

function message(day: string, content: string, chat = 'web:main'): WindowMessage {
  return {
    id: `${day}-${content.length}`,
    chat,
    root: chat,
    chatName: chat,
    ts: `${day}T10:00:00.000Z`,
    role: 'user',
    sender: 'Maya',
    content,
    day,
  }
}

describe('dream blocks', () => {
  it('replaces only the text between its markers', () => {
    const once = writeBlock('# Title\n\nmine\n', 'x', 'one')
    expect(once).toBe('# Title\n\nmine\n\n<!-- dreamlane:begin x -->\none\n<!-- dreamlane:end x -->\n')
    const edited = `${once}after, also mine\n`
    expect(writeBlock(edited, 'x', 'two')).toBe(edited.replace('\none\n', '\ntwo\n'))
    expect(readBlock(writeBlock(edited, 'x', 'two'), 'x')).toBe('two')
  })
})

describe('recent-context', () => {
  const days = ['2026-11-20', '2026-11-21', '2026-11-22']
  const messagesByDay = new Map([
    ['2026-11-20', [message('2026-11-20', 'prepping the Atlas review with Rui')]],
    ['2026-11-22', [message('2026-11-22', 'the Atlas launch party is at Rui and Ana place')]],
  ])
  const input = {
    days,
    messagesByDay,
    factsByDay: new Map([['2026-11-22', [fact({ day: '2026-11-22' })]]]),
    factsByMessage: new Map(),
  }

  it('lists the window days newest first with what was learned, and the quiet days', () => {
    const text = renderRecentContext(MEMORY_SKELETONS['recent-context.md'], input)
    const block = readBlock(text, 'recent-context') ?? ''
    expect(block.indexOf('### Sunday 2026-11-22')).toBeLessThan(block.indexOf('### Friday 2026-11-20'))
    expect(block).toContain('- Learned: City: Porto')
    expect(block).toContain('No messages on 2026-11-21.')
    expect(block).toContain('Recurring topics: Atlas (2 days), Rui (2 days)')
  })

  it('drops days that left the window', () => {
    const old = renderRecentContext(MEMORY_SKELETONS['recent-context.md'], input)
    const later = renderRecentContext(old, { ...input, days: ['2026-11-22', '2026-11-23'] })
    expect(later).not.toContain('2026-11-20')
    expect(later).toContain('### Sunday 2026-11-22')
  })

  it('counts a topic once per day and needs two days', () => {
    const topics = recurringTopics(
      new Map([['2026-11-20', [message('2026-11-20', 'so Lena and Lena again')]]]),
    )
    expect(topics).toEqual([])
  })
})

describe('current-state', () => {
  const project = [
    '## Plans and deadlines',
    '- ~~**2026-12-04** — launch Dec 4 [[2026-11-16]]~~ — superseded 2026-11-20 → 2026-12-11 <!-- key: plan.atlas-launch; value: 2026-12-04; superseded: 2026-11-20 -->',
    '- **2026-12-11** — launch moved to Dec 11 [[2026-11-20]] <!-- key: plan.atlas-launch; value: 2026-12-11 -->',
    '- **2026-11-21** — Lena visits Saturday [[2026-11-19]] <!-- key: plan.lena; value: 2026-11-21 -->',
    '- **2026-10-01** — old trip [[2026-09-01]] <!-- key: plan.trip; value: 2026-10-01 -->',
  ].join('\n')
  const status = new Map([['2026-11-22', { state: 'complete', messages: 12 }]])

  it('lists dated plans soonest first with their superseded dates, and a state for every day', () => {
    const text = renderCurrentState(MEMORY_SKELETONS['current-state.md'], {
      days: ['2026-11-21', '2026-11-22'],
      status,
      projectText: project,
    })
    const block = readBlock(text, 'current-state') ?? ''
    expect(block).toContain(
      '- **2026-11-21** — Lena visits Saturday [[2026-11-19]] (past)\n- **2026-12-11** — launch moved to Dec 11 [[2026-11-20]] · was 2026-12-04 (superseded 2026-11-20)',
    )
    expect(block).not.toContain('old trip')
    expect(block).toContain('| 2026-11-22 | complete | 12 |\n| 2026-11-21 | no messages | 0 |')
    expect(text.startsWith(MEMORY_SKELETONS['current-state.md'])).toBe(true)
  })
})

describe('day pages', () => {
  it('are for days with a decision, a change or two facts', () => {
    expect(isImportantDay([fact()])).toBe(false)
    expect(isImportantDay([fact(), fact()])).toBe(false)
    expect(isImportantDay([fact(), fact({ key: 'user.name' })])).toBe(true)
    expect(isImportantDay([fact({ kind: 'decision' })])).toBe(true)
    expect(isImportantDay([fact({ previous: 'Lisbon' })])).toBe(true)
  })

  it('keep what the model or a person wrote around the dream block', () => {
    const messages = [message('2026-11-18', 'we moved from Lisbon to Porto')]
    const input = { day: '2026-11-18', facts: [fact()], messages, factsByMessage: new Map(), timeZone: 'UTC' }
    const fresh = renderDayPage(null, input)
    expect(fresh.startsWith('# Wednesday, November 18, 2026\n')).toBe(true)
    expect(fresh).toContain('- City: Porto → user.md')
    const edited = `${fresh}\nA note the model added.\n`
    expect(renderDayPage(edited, input)).toBe(edited)
  })
})
