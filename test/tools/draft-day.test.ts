// draft_day: the offline engine's extract of one window day, read through the message tools' own window and rules.
import { describe, expect, it } from 'vitest'
import { PrivacyStore } from '../../src/db/privacy-store.js'
import { offlineDayDrafter } from '../../src/model/offline/day-drafter.js'
import { noteBudgetFor } from '../../src/tools/note-budget.js'
import { createToolSet } from '../../src/tools/tool-set.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { makeToolWorld } from './world.js'

const DAY: MessageSpec[] = [
  {
    id: 'm1',
    chatJid: 'chat:a',
    senderName: 'Ana',
    content: 'Morning! How are you?',
    timestamp: '2026-11-22T08:00:00.000Z',
  },
  {
    id: 'm2',
    chatJid: 'chat:a',
    senderName: 'Rui',
    isFromMe: true,
    content:
      'Great. Yesterday I adopted a grey cat called Miso from the Porto shelter, she is two years old.',
    timestamp: '2026-11-22T08:01:00.000Z',
  },
  {
    id: 'm3',
    chatJid: 'chat:a',
    senderName: 'Ana',
    content: 'Aww! I finished reading "The Overstory" last night, it took me three weeks.',
    timestamp: '2026-11-22T08:02:00.000Z',
  },
  {
    id: 'm4',
    chatJid: 'chat:a',
    senderName: 'Rui',
    isFromMe: true,
    content: 'lol nice',
    timestamp: '2026-11-22T08:03:00.000Z',
  },
  {
    id: 'o1',
    chatJid: 'chat:a',
    senderName: 'Ana',
    content: 'A lighthouse trip tomorrow?',
    timestamp: '2026-11-23T09:00:00.000Z',
  },
]

function draftWorld(messages: MessageSpec[] = DAY, excludeChats: string[] = []) {
  const world = makeToolWorld({}, { messages })
  // as a dream's tool set gets them (dream/consolidate.ts)
  const privacy = new PrivacyStore(world.state).rules(excludeChats)
  const dayDrafter = offlineDayDrafter(world.window.timeZone)
  const tools = createToolSet(
    { ...world.context, privacy, dayDrafter },
    { noteBudget: noteBudgetFor(10_000) },
  )
  return { ...world, tools }
}

describe('draft_day', () => {
  it("returns the offline engine's extract of that day only, with its bytes and its share of the budget", async () => {
    const { tools } = draftWorld()
    const result = await tools.call('draft_day', { day: '2026-11-22' })
    expect(result.ok, result.content).toBe(true)
    const dayBytes = DAY.slice(0, 4).reduce((sum, m) => sum + Buffer.byteLength(m.content), 0)
    // the daily notes' 22% of a 10,000-byte window, in proportion to the day's bytes
    const share = Math.round((2200 * dayBytes) / 10_000)
    expect(result.content).toMatch(
      new RegExp(
        `^2026-11-22: 4 messages, ${dayBytes} bytes; its share of the notes budget: about ${share} bytes`,
      ),
    )
    expect(result.content).toContain('Miso')
    expect(result.content).toContain('2026-11-21') // "yesterday" resolved against the message's own day
    expect(result.content).not.toContain('lighthouse') // another day's message
    expect(result.content).not.toContain('lol nice')
  })

  it('is offered only to a tool set with a drafter (a dream), not to a chat turn', () => {
    const world = makeToolWorld({}, { messages: DAY })
    const names = (set: ReturnType<typeof createToolSet>) => set.specs().map((spec) => spec.name)
    expect(names(createToolSet(world.context))).not.toContain('draft_day')
    expect(names(draftWorld().tools)).toContain('draft_day')
  })

  it('refuses a day outside the window and says so', async () => {
    const { tools } = draftWorld()
    const result = await tools.call('draft_day', { day: '2026-10-01' })
    expect(result).toMatchObject({ ok: false, code: 'MESSAGES_OUT_OF_SCOPE' })
    expect(result.content).toContain('outside the window')
  })

  it('leaves excluded chats out, as get_messages does', async () => {
    const { tools } = draftWorld(DAY, ['chat:a'])
    const result = await tools.call('draft_day', { day: '2026-11-22' })
    expect(result.ok, result.content).toBe(true)
    expect(result.content).toBe('2026-11-22: no messages to draft from.')
  })

  it('teaches the secret guard what it showed: a write that copies a secret from the draft is withheld', async () => {
    const secret: MessageSpec = {
      id: 's1',
      chatJid: 'chat:a',
      senderName: 'Rui',
      isFromMe: true,
      content: 'The wifi password is Tr0ub4dor&3xq, I changed it yesterday after the router died.',
      timestamp: '2026-11-22T08:04:00.000Z',
    }
    const { tools, paths } = draftWorld([...DAY, secret])
    await tools.call('draft_day', { day: '2026-11-22' })
    const write = await tools.call('write_file', {
      path: 'notes/memory/reference.md',
      content: '# Reference\n\n- **Wifi password: Tr0ub4dor&3xq**\n',
    })
    const { readFileSync } = await import('node:fs')
    const written = readFileSync(`${paths.memory}/reference.md`, 'utf8')
    expect(written, write.content).not.toContain('Tr0ub4dor&3xq')
  })
})
