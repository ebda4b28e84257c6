// finish_day on real seeded notes: one call leaves a valid complete note; the window and the day's range hold.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CUES_OPEN,
  dayStateOf,
  NEEDS_SUMMARY,
  NEEDS_SUMMARY_UPDATE,
  parseDailyNote,
  WARNING_PREFIX,
} from '../../src/notes/daily-note.js'
import { seedDailyNotes } from '../../src/notes/seed.js'
import { createToolSet } from '../../src/tools/tool-set.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { dailyNote, makeToolWorld } from './world.js'

const DAY = '2026-11-22'
const MESSAGES: MessageSpec[] = [
  { chatJid: 'web:main', content: 'I signed the bakery lease today.', timestamp: `${DAY}T09:00:00.000Z` },
  { chatJid: 'web:main', content: 'Congratulations!', timestamp: `${DAY}T09:00:05.000Z`, isBotMessage: true },
  { chatJid: 'web:main', content: 'Opening is on July 1.', timestamp: `${DAY}T18:30:00.000Z` },
]

async function seededWorld(messages: MessageSpec[] = MESSAGES, files: Record<string, string> = {}) {
  const world = makeToolWorld(files, { messages })
  const seed = () =>
    seedDailyNotes({
      paths: world.paths,
      config: world.config,
      messages: world.messages,
      window: world.window,
    })
  await seed()
  const read = (day = DAY) => readFileSync(join(world.paths.daily, `${day}.md`), 'utf8')
  return { ...world, seed, read, tools: createToolSet(world.context) }
}

describe('finish_day', () => {
  it('writes the summary, drops marker, warning and cues, and sets summarised_until to the last message', async () => {
    const { tools, read } = await seededWorld()
    const before = parseDailyNote(read(), 'x')
    expect(before.cues).not.toBeNull()
    const result = await tools.call('finish_day', {
      day: DAY,
      summary: '- Signed the bakery lease; opens 2026-07-01.',
    })
    expect(result.ok).toBe(true)
    expect(result.content).toMatch(
      /^wrote notes\/daily\/2026-11-22\.md \(\d+ bytes\); 2026-11-22 is complete/,
    )
    const text = read()
    for (const gone of [NEEDS_SUMMARY, CUES_OPEN, WARNING_PREFIX]) expect(text).not.toContain(gone)
    const note = parseDailyNote(text, 'x')
    expect(dayStateOf(note)).toBe('complete')
    expect(note.frontMatter).toEqual({ ...before.frontMatter, summarised_until: `${DAY}T18:30:00.000Z` })
    expect(note.sections).toEqual([
      { updateTime: null, text: '- Signed the bakery lease; opens 2026-07-01.', isPending: false },
    ])
  })

  it('covers only up to an earlier summarised_until, leaving the day partial with its cues', async () => {
    const { tools, read } = await seededWorld()
    const result = await tools.call('finish_day', {
      day: DAY,
      summary: 'Lease signed.',
      summarised_until: `${DAY}T09:00:05Z`,
    })
    expect(result.content).toMatch(/still partial/)
    const note = parseDailyNote(read(), 'x')
    expect(note.frontMatter.summarised_until).toBe(`${DAY}T09:00:05.000Z`)
    expect(dayStateOf(note)).toBe('partial')
    expect(note.cues).not.toBeNull()
  })

  it('fills the pending summary update of a day that got new messages, keeping the first summary', async () => {
    const { tools, read, seed, messages } = await seededWorld()
    await tools.call('finish_day', { day: DAY, summary: 'Lease signed.' })
    messages.insertMessages([
      {
        id: 'late',
        chatJid: 'web:main',
        content: 'The oven arrives Friday.',
        timestamp: `${DAY}T21:00:00.000Z`,
      },
    ])
    await seed()
    expect(read()).toContain(NEEDS_SUMMARY_UPDATE)
    const result = await tools.call('finish_day', { day: DAY, summary: 'Oven due on Friday.' })
    expect(result.ok).toBe(true)
    const note = parseDailyNote(read(), 'x')
    expect(note.sections.map((section) => [section.updateTime, section.text])).toEqual([
      [null, 'Lease signed.'],
      ['21:00', 'Oven due on Friday.'],
    ])
    expect(note.frontMatter.summarised_until).toBe(`${DAY}T21:00:00.000Z`)
    expect(dayStateOf(note)).toBe('complete')
  })

  it.each([
    [
      'a day before the window',
      { day: '2026-10-01', summary: 'x' },
      'PATH_OUT_OF_SCOPE',
      /outside the window/,
    ],
    ['a future day', { day: '2026-12-01', summary: 'x' }, 'PATH_OUT_OF_SCOPE', /outside the window/],
    ['a window day without messages', { day: '2026-11-21', summary: 'x' }, 'NOT_FOUND', /has no messages/],
    ['an empty summary', { day: DAY, summary: '  ' }, 'TOOL_INPUT_INVALID', /summary/],
    [
      'a watermark outside the day',
      { day: DAY, summary: 'x', summarised_until: '2026-11-23T08:00:00Z' },
      'TOOL_INPUT_INVALID',
      /outside the day's messages/,
    ],
  ])('refuses %s and leaves the notes as they were', async (_name, input, code, message) => {
    const { tools, read, paths } = await seededWorld(MESSAGES, {
      'notes/daily/2026-10-01.md': dailyNote('2026-10-01', 'An old day.'),
    })
    const before = read()
    const old = readFileSync(join(paths.daily, '2026-10-01.md'), 'utf8')
    const result = await tools.call('finish_day', input)
    expect(result).toMatchObject({ ok: false, code })
    expect(result.content).toMatch(message)
    expect(read()).toBe(before)
    expect(readFileSync(join(paths.daily, '2026-10-01.md'), 'utf8')).toBe(old)
  })

  it('refuses a day that is already complete', async () => {
    const { tools } = await seededWorld()
    await tools.call('finish_day', { day: DAY, summary: 'Lease signed.' })
    const again = await tools.call('finish_day', { day: DAY, summary: 'Lease signed again.' })
    expect(again).toMatchObject({ ok: false, code: 'DAY_COMPLETE' })
  })
})
