import { describe, expect, it } from 'vitest'
import { readBlock } from '../../../src/notes/owned-block.js'
import { parseEntries } from '../../../src/model/offline/memory-file.js'
import { parseDayPointers } from '../../../src/model/offline/memory-index.js'
import { createOfflineProvider } from '../../../src/model/offline/engine.js'
import { MEMORY_SKELETONS } from '../../../src/model/offline/skeletons.js'
import { dayStateOf, parseDailyNote } from '../../../src/notes/daily-note.js'
import { MEMORY_FILES } from '../../../src/notes/paths.js'
import { dayWindow } from '../../../src/time/local-day.js'
import type { ToolSet } from '../../../src/tools/types.js'
import { makeDreamWorld, NOW } from './world.js'

const memory = (name: string): string => `notes/memory/${name}`

describe('offline engine on the sample data (7-day window)', () => {
  it('puts each planted fact of the window in its expected file with the words it must contain', async () => {
    const world = await makeDreamWorld()
    const result = await world.dream()
    expect(result.stop).toBe('end')
    const planted = world.sample?.planted.filter((fact) => world.window.days.includes(fact.day)) ?? []
    expect(planted.length).toBeGreaterThanOrEqual(8)
    for (const fact of planted) {
      const text = world.read(memory(fact.expectedFile)).toLowerCase()
      for (const words of fact.mustContain)
        expect(text, `${fact.id} in ${fact.expectedFile}`).toContain(words.toLowerCase())
    }
  })

  it('updates a changed fact and keeps the old value, struck through as superseded with its date', async () => {
    const world = await makeDreamWorld()
    await world.dream()
    const changed =
      world.sample?.planted.filter((fact) => fact.supersedes && world.window.days.includes(fact.day)) ?? []
    expect(changed.length).toBeGreaterThan(0)
    for (const fact of changed) {
      const text = world.read(memory(fact.expectedFile))
      const entries = parseEntries(text)
      for (const old of fact.supersedes?.mustContain ?? []) {
        const struck = entries.filter((entry) => entry.value?.includes(old))
        expect(struck.length, old).toBeGreaterThan(0)
        for (const entry of struck) expect(entry.supersededOn).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        const line = text.split('\n')[struck[0]!.line] ?? ''
        expect(line).toMatch(new RegExp(`~~.*${old}.*~~ — superseded \\d{4}-\\d{2}-\\d{2} → `))
      }
      const current = entries.filter(
        (entry) =>
          entry.supersededOn === null && fact.mustContain.some((words) => entry.value?.includes(words)),
      )
      expect(current.length, fact.id).toBe(1)
    }
  })

  it('summarises every window day: complete, watermark at the last message, names and numbers kept', async () => {
    const world = await makeDreamWorld()
    await world.dream()
    const notes = [...world.snapshot()].filter(([path]) => path.startsWith('notes/daily/'))
    expect(notes.length).toBeGreaterThanOrEqual(5)
    for (const [path, text] of notes) {
      const note = parseDailyNote(text, path)
      expect(dayStateOf(note), path).toBe('complete')
      expect(note.frontMatter.summarised_until).toBe(note.frontMatter.last_message)
      expect(text).not.toContain('NEEDS_SUMMARY')
      expect(text).not.toContain('DREAM_CUES')
    }
    const address = world.sample?.planted.find((fact) => fact.id === 'ref-home-address')
    expect(world.read(`notes/daily/${address?.day}.md`)).toContain('Rua de Cedofeita 212')
  })

  it('writes the same notes when days are summarised on a thread alongside the reading', async () => {
    const inline = await makeDreamWorld({ days: 14 })
    await inline.dream()
    const threaded = await makeDreamWorld({ days: 14 })
    const provider = createOfflineProvider({ threadedSummariesMin: 1 })
    const result = await threaded.dream({ provider, readsOnThread: true })
    expect(result.stop).toBe('end')
    const notes = (world: typeof inline): [string, string][] =>
      [...world.snapshot()].filter(([path]) => path.startsWith('notes/daily/'))
    expect(notes(threaded).length).toBeGreaterThanOrEqual(10)
    expect(notes(threaded)).toEqual(notes(inline))
    expect(threaded.snapshot()).toEqual(inline.snapshot())
  }, 120_000)

  it('changes no byte on a second seed + dream over the same window', async () => {
    const world = await makeDreamWorld()
    await world.dream()
    const before = world.snapshot()
    const again = await world.dream()
    expect(world.snapshot()).toEqual(before)
    expect(again.text).toContain('nothing new')
    expect(
      again.transcript.filter((entry) => entry.kind === 'tool_call' && entry.name === 'write_file'),
    ).toEqual([])
  })

  it('keeps MEMORY.md under budget with the newest day page, trimming the oldest pages’ pointers', async () => {
    // Day pages an earlier (model) dream wrote for each window day: only they get pointers.
    const days = dayWindow(new Date(NOW), 21, 'Europe/Lisbon').days
    const pages = Object.fromEntries(
      days.map((day) => [`notes/memory/days/${day}.md`, `# ${day}\n\nWhat mattered that day.\n`]),
    )
    const world = await makeDreamWorld({ days: 21, files: pages })
    const result = await world.dream({ budgetBytes: 520 })
    const index = world.read(memory('MEMORY.md'))
    expect(Buffer.byteLength(index)).toBeLessThanOrEqual(520)
    const pointers = parseDayPointers(index)
    expect(pointers[0]?.day).toBe(world.sample?.lastDay)
    expect(pointers.every((pointer) => pointer.target === `days/${pointer.day}.md`)).toBe(true)
    expect(result.text).toMatch(/MEMORY\.md trimmed \d+ old day pointers/)
    // The oldest go first.
    const withMessages = world.window.days.filter((day) => world.snapshot().has(`notes/daily/${day}.md`))
    const kept = pointers.map((pointer) => pointer.day)
    const trimmed = withMessages.filter((day) => !kept.includes(day))
    expect(trimmed.length).toBeGreaterThan(0)
    for (const day of trimmed)
      expect(
        kept.every((keptDay) => keptDay > day),
        day,
      ).toBe(true)
  })

  it('drops an index full of daily-note pointers: the days are in recent-context.md and daily/', async () => {
    const old = Array.from({ length: 120 }, (_, index) => {
      const day = `2025-${String(Math.floor(index / 28) + 1).padStart(2, '0')}-${String((index % 28) + 1).padStart(2, '0')}`
      return `- [${day}](../daily/${day}.md) — Atlas standup notes, Porto flat viewing and a long hook ${index}`
    })
    const index = `${MEMORY_SKELETONS['MEMORY.md']}\n<!-- dreamlane:begin index -->\n## Days\n\n${old.reverse().join('\n')}\n<!-- dreamlane:end index -->\n`
    const world = await makeDreamWorld({ files: { [memory('MEMORY.md')]: index } })
    const result = await world.dream()
    const text = world.read(memory('MEMORY.md'))
    expect(parseDayPointers(text)).toEqual([])
    expect(text).toContain('[recent-context.md](recent-context.md)')
    expect(result.text).not.toMatch(/trimmed/)
    expect(world.read(memory('recent-context.md'))).toContain(`[[${world.sample?.lastDay}]]`)
  })
})

describe('offline engine safeguards', () => {
  it('keeps every line a person wrote in a memory file', async () => {
    const user = MEMORY_SKELETONS['user.md'].replace(
      '## Identity\n',
      '## Identity\n\n- I am allergic to penicillin — written by hand, keep!\n- Lives in Lisbon <!-- my own note -->\n',
    )
    const world = await makeDreamWorld({ files: { [memory('user.md')]: user } })
    await world.dream()
    const after = world.read(memory('user.md')).split('\n')
    for (const line of user.split('\n')) expect(after).toContain(line)
  })

  it('never writes a daily note or day page outside the window', async () => {
    const world = await makeDreamWorld()
    await world.seed(dayWindow(new Date(NOW), 21, world.window.timeZone))
    const before = world.snapshot()
    await world.turn()
    const after = world.snapshot()
    const outside = [...before].filter(
      ([path]) =>
        path.startsWith('notes/daily/') && !world.window.days.some((day) => path.endsWith(`${day}.md`)),
    )
    expect(outside.length).toBeGreaterThan(5)
    for (const [path, text] of outside) expect(after.get(path), path).toBe(text)
    const pages = [...after.keys()].filter((path) => path.startsWith('notes/memory/days/'))
    for (const page of pages)
      expect(
        world.window.days.some((day) => page.endsWith(`${day}.md`)),
        page,
      ).toBe(true)
    // A fact said before the window is not learned from this window.
    expect(world.read(memory('user.md'))).not.toContain('Tidewell')
  })

  it('stops at once when the signal is already aborted', async () => {
    const world = await makeDreamWorld()
    await world.seed()
    const before = world.snapshot()
    const controller = new AbortController()
    controller.abort()
    const result = await world.turn({ signal: controller.signal })
    expect(result.stop).toBe('aborted')
    expect(result.transcript.filter((entry) => entry.kind === 'tool_call')).toEqual([])
    expect(world.snapshot()).toEqual(before)
  })

  it('stops between tool calls when the signal aborts mid-turn', async () => {
    const world = await makeDreamWorld()
    await world.seed()
    const controller = new AbortController()
    let calls = 0
    const wrapTools = (tools: ToolSet): ToolSet => ({
      ...tools,
      call: async (name, input, signal) => {
        calls += 1
        const result = await tools.call(name, input, signal)
        if (calls === 12) controller.abort()
        return result
      },
    })
    const result = await world.turn({ signal: controller.signal, wrapTools })
    expect(result.stop).toBe('aborted')
    expect(calls).toBe(12)
    expect(result.transcript.filter((entry) => entry.kind === 'tool_call')).toHaveLength(12)
    expect(result.text).toContain('cancelled after 12 tool calls')
  })

  it('reports the tool-call limit instead of running past it', async () => {
    const world = await makeDreamWorld()
    const result = await world.dream({ maxToolCalls: 3 })
    expect(result).toMatchObject({ stop: 'limit', limit: 'tool_calls' })
    expect(result.transcript.filter((entry) => entry.kind === 'tool_call')).toHaveLength(3)
  })

  it('reads what still needs a summary first when the budget cannot cover the window, and finishes next time', async () => {
    const world = await makeDreamWorld({ days: 21 })
    const starved = await world.dream({ maxToolCalls: 65 })
    expect(starved.stop).toBe('end')
    expect(starved.text).toContain('only messages still to summarise were read')
    const states = (): string[] =>
      [...world.snapshot()]
        .filter(([path]) => path.startsWith('notes/daily/'))
        .map(([path, text]) => dayStateOf(parseDailyNote(text, path)))
    expect(states()).toContain('complete')
    expect(states()).toContain('unsummarised')
    const full = await world.dream()
    expect(full.text).not.toContain('only messages still to summarise')
    expect(new Set(states())).toEqual(new Set(['complete']))
  })

  it('creates the seven memory files when they are missing (bootstrap)', async () => {
    const world = await makeDreamWorld({ isBare: true })
    const result = await world.dream()
    for (const name of MEMORY_FILES) {
      const text = world.read(memory(name))
      // Entries go inside the sections, so check every skeleton line is there, in order.
      let at = 0
      for (const line of MEMORY_SKELETONS[name].trimEnd().split('\n')) {
        at = text.indexOf(line, at)
        expect(at, `${name}: ${line}`).toBeGreaterThanOrEqual(0)
      }
    }
    expect(result.text).toContain(
      'Memory files touched: MEMORY.md, current-state.md, recent-context.md, user.md',
    )
  })

  it('reports as a provider: name, zero usage, the transcript of its calls and a closing summary', async () => {
    const world = await makeDreamWorld()
    const result = await world.dream()
    expect(result.usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      requests: 0,
    })
    const kinds = result.transcript.map((entry) => entry.kind)
    expect(kinds[0]).toBe('tool_call')
    expect(kinds[1]).toBe('tool_result')
    expect(result.transcript.at(-1)).toEqual({ kind: 'text', role: 'assistant', text: result.text })
    expect(result.text).toMatch(
      /^Offline dream over \d{4}-\d{2}-\d{2} → \d{4}-\d{2}-\d{2} \(\d+ messages\): summarised \d+ days/,
    )
    expect(result.text).toContain('City: Lisbon → Porto')
  })
})

describe('offline engine on other wording', () => {
  it('learns, updates and indexes facts said differently from the sample', async () => {
    const at = (day: string, time: string): string => `${day}T${time}:00.000Z`
    const messages = [
      {
        chatJid: 'web:dm',
        content: "Hi, I'm Priya Raman. I work for Nimbus Health as a data engineer.",
        timestamp: at('2026-11-18', '09:00'),
      },
      { chatJid: 'web:dm', content: 'I live in Denver.', timestamp: at('2026-11-18', '09:01') },
      {
        chatJid: 'web:dm',
        content: 'Nice to meet you, Priya!',
        timestamp: at('2026-11-18', '09:02'),
        isBotMessage: true,
      },
      {
        chatJid: 'proj:orbit',
        content: 'The Orbit demo is on December 3.',
        timestamp: at('2026-11-19', '15:00'),
      },
      {
        chatJid: 'proj:orbit',
        content: 'We chose Kafka over RabbitMQ for Orbit.',
        timestamp: at('2026-11-19', '15:05'),
      },
      {
        chatJid: 'web:dm',
        content: 'Please stop adding emoji to every reply.',
        timestamp: at('2026-11-20', '08:00'),
      },
      {
        chatJid: 'web:dm',
        content: 'What if I moved to Austin? Would rent be lower?',
        timestamp: at('2026-11-20', '08:05'),
      },
      {
        chatJid: 'proj:orbit',
        content: 'Heads up: the Orbit demo moved from Dec 3 to Dec 10.',
        timestamp: at('2026-11-21', '10:00'),
      },
      {
        chatJid: 'web:dm',
        content: 'Big news, we relocated to Boulder last week.',
        timestamp: at('2026-11-22', '18:00'),
      },
      {
        chatJid: 'web:dm',
        content: 'My locker code is 4471 and my library card number is LB-228199.',
        timestamp: at('2026-11-22', '18:05'),
      },
    ]
    const world = await makeDreamWorld({ messages, timeZone: 'UTC' })
    await world.dream()
    const user = world.read(memory('user.md'))
    expect(user).toContain('**Name: Priya Raman**')
    expect(user).toContain('**Works at: Nimbus Health**')
    expect(user).toMatch(/~~\*\*City: Denver\*\*.*~~ — superseded 2026-11-22 → Boulder/)
    expect(user).toContain('**City: Boulder**')
    expect(user).not.toContain('Austin')
    const project = world.read(memory('project.md'))
    expect(project).toContain('We chose Kafka over RabbitMQ for Orbit.')
    expect(project).toMatch(
      /~~\*\*2026-12-03\*\* — The Orbit demo is on December 3 \(2026-12-03\)\. \[\[2026-11-19\]\]~~ — superseded 2026-11-21 → 2026-12-10/,
    )
    expect(world.read(memory('feedback.md'))).toContain('Please stop adding emoji to every reply.')
    expect(world.read(memory('reference.md'))).toContain('LB-228199')
    const state = readBlock(world.read(memory('current-state.md')), 'current-state') ?? ''
    expect(state).toContain('was 2026-12-03 (superseded 2026-11-21)')
    expect(world.read(memory('recent-context.md'))).toContain('[[2026-11-22]]')
  })

  it('keeps what a new user planted: a changed employer, standing instructions, names, a reminder, dated summaries', async () => {
    const at = (day: string, time: string): string => `${day}T${time}:00.000Z`
    const said = (day: string, time: string, content: string, isBotMessage = false) => ({
      chatJid: 'web:dm',
      content,
      timestamp: at(day, time),
      isBotMessage,
    })
    const messages = [
      said('2026-11-17', '09:00', "Hi! I'm Sam Lee, a product designer at Acme Corp."),
      said('2026-11-17', '09:01', 'Nice to meet you, Sam!', true),
      said('2026-11-17', '09:02', 'Please always give me metric units.'),
      said('2026-11-17', '09:03', 'Got it: metric from now on.', true),
      said('2026-11-18', '20:00', 'Our cat is called Miso, she is 3.'),
      said('2026-11-18', '20:01', 'Miso is a lovely name!', true),
      said('2026-11-18', '20:02', 'the wifi is called casa-fox-5g btw'),
      said('2026-11-19', '08:00', 'yes please, short list.'),
      said('2026-11-19', '08:01', '/dream 2'),
      said('2026-11-20', '12:00', 'Big news: I accepted the offer from Globex, I start there in January.'),
      said('2026-11-20', '12:01', 'Congratulations! Globex is a big step.', true),
      said('2026-11-20', '12:02', 'We decided to sell the old sofa before the move.'),
      said('2026-11-21', '10:00', 'Please remind me to renew my passport before March.'),
      said('2026-11-21', '10:01', 'On Friday I got the keys to the new studio.'),
    ]
    const world = await makeDreamWorld({ messages, timeZone: 'UTC' })
    await world.dream()
    const user = world.read(memory('user.md'))
    expect(user).toMatch(/~~\*\*Works at: Acme Corp\*\*.*~~ — superseded 2026-11-20 → Globex/)
    expect(user).toContain('**Works at: Globex**')
    expect(user).toContain('**Cat: Miso**')
    expect(world.read(memory('feedback.md'))).toContain('always give me metric units')
    expect(world.read(memory('reference.md'))).toContain('casa-fox-5g')
    expect(world.read(memory('project.md'))).toContain('sell the old sofa')
    expect(world.read(memory('current-state.md'))).toContain('renew my passport')
    const friday = world.read('notes/daily/2026-11-21.md')
    expect(friday).toContain('Friday (2026-11-20)')
    expect(friday).not.toMatch(/\(2026-11-\d\d\) \(2026/)
    const quiet = world.read('notes/daily/2026-11-19.md')
    expect(quiet).not.toContain('/dream')
    expect(quiet).not.toContain('short list')
  })
})
