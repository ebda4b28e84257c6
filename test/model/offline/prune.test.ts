import { beforeAll, describe, expect, it } from 'vitest'
import { readBlock, writeBlock } from '../../../src/notes/owned-block.js'
import { renderCurrentState } from '../../../src/model/offline/current-state.js'
import { weightsOf } from '../../../src/model/offline/daily-summary.js'
import { WordWeights } from '../../../src/model/offline/word-weights.js'
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
    [
      '2026-11-20',
      [
        message('2026-11-20', 'prepping the Atlas review with Rui'),
        message('2026-11-20', 'Rui wants the Atlas review slides by noon'),
      ],
    ],
    ['2026-11-22', [message('2026-11-22', 'the Atlas launch party is at Rui and Ana place')]],
  ])
  const input = {
    days,
    messagesByDay,
    factsByDay: new Map([['2026-11-22', [fact({ day: '2026-11-22' })]]]),
    weights: new WordWeights(),
  }
  beforeAll(async () => {
    input.weights = await weightsOf([...messagesByDay.values()].flat())
  })

  it('lists the days with messages newest first, one line each with what they were about', () => {
    const text = renderRecentContext(MEMORY_SKELETONS['recent-context.md'], input)
    const block = readBlock(text, 'recent-context') ?? ''
    expect(block.indexOf('[[2026-11-22]] Sun, 1 message in web:main')).toBeGreaterThan(0)
    expect(block.indexOf('[[2026-11-22]]')).toBeLessThan(block.indexOf('[[2026-11-20]]'))
    expect(block).toMatch(/\[\[2026-11-20\]\] Fri, 2 messages in web:main: .*Atlas/)
    expect(block).not.toContain('2026-11-21')
    expect(block).toContain('Recurring: Atlas (2 days), Rui (2 days)')
  })

  it('drops days that left the window, and caps a long window at its last three active days', () => {
    const old = renderRecentContext(MEMORY_SKELETONS['recent-context.md'], input)
    const later = renderRecentContext(old, { ...input, days: ['2026-11-22', '2026-11-23'] })
    expect(later).not.toContain('2026-11-20')
    expect(later).toContain('[[2026-11-22]]')
    const long = Array.from({ length: 30 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`)
    const busy = new Map(long.map((day) => [day, [message(day, `Atlas notes for ${day}`)]]))
    const block = readBlock(
      renderRecentContext('', { ...input, days: long, messagesByDay: busy }),
      'recent-context',
    )
    expect(block?.match(/^- \[\[/gm)?.length).toBe(3)
    expect(block).toContain('- and 27 earlier days with messages (notes in ../daily/)')
  })

  it('does not count the person the user talks to, called by name every day, as a topic', () => {
    const reply = (day: string, content: string): WindowMessage => ({
      ...message(day, content),
      role: 'assistant',
      sender: 'Nate Bell',
    })
    const topics = recurringTopics(
      new Map([
        ['2026-11-20', [message('2026-11-20', 'Good idea, Nate! We told Lena'), reply('2026-11-20', 'Nice')]],
        ['2026-11-21', [message('2026-11-21', 'Thanks, Nate! We met Lena'), reply('2026-11-21', 'Fun')]],
      ]),
    )
    expect(topics.map((topic) => topic.term)).toEqual(['Lena'])
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
    '- **2026-11-23** — Lena visits Monday [[2026-11-19]] <!-- key: plan.lena; value: 2026-11-23 -->',
    '- **2026-11-21** — dinner with Rui [[2026-11-19]] <!-- key: plan.dinner; value: 2026-11-21 -->',
  ].join('\n')

  it('lists upcoming plans soonest first with their superseded dates, and only the days that need work', () => {
    const days = Array.from({ length: 40 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`).slice(
      0,
      31,
    )
    days.push('2026-11-21', '2026-11-22')
    const status = new Map([
      ['2026-11-22', { state: 'complete', messages: 12 }],
      ['2026-11-21', { state: 'partial', messages: 30 }],
      ['2026-10-02', { state: 'complete', messages: 3 }],
    ])
    const text = renderCurrentState(MEMORY_SKELETONS['current-state.md'], {
      days,
      status,
      projectText: project,
    })
    const block = readBlock(text, 'current-state') ?? ''
    expect(block).toContain(
      '- **2026-11-23** — Lena visits Monday [[2026-11-19]]\n- **2026-12-11** — launch moved to Dec 11 [[2026-11-20]] · was 2026-12-04 (superseded 2026-11-20)',
    )
    expect(block).not.toContain('dinner with Rui')
    expect(block).toContain('- 3 days with messages, 2 complete\n- 2026-11-21: partial, 30 messages')
    expect(block).not.toContain('no messages')
    expect(block.split('\n').length).toBeLessThan(12)
    expect(text.startsWith(MEMORY_SKELETONS['current-state.md'])).toBe(true)
  })
})
