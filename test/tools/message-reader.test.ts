// The message reader: a dream's message tools read on a reader thread with the same results, refusals and errors.
import { readdirSync, readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { MessagesDb } from '../../src/db/messages.js'
import type { GatherPlan } from '../../src/notes/day-aggregator.js'
import { seedDailyNotes } from '../../src/notes/seed.js'
import { MESSAGE_PAGE_CEILING } from '../../src/tools/message-tools.js'
import { openMessageReader } from '../../src/tools/message-reader.js'
import { createToolSet } from '../../src/tools/tool-set.js'
import type { ToolContext, ToolResult } from '../../src/tools/types.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { makeToolWorld } from './world.js'

// Window: 2026-11-21 … 2026-11-23 UTC; 2,600 messages in it, two outside it, one in a dream channel.
const MESSAGES: MessageSpec[] = [
  { id: 'old', chatJid: 'chat:a', content: 'before the window', timestamp: '2026-11-20T23:59:59.000Z' },
  { id: 'new', chatJid: 'chat:c', content: 'after the window', timestamp: '2026-11-24T00:00:00.000Z' },
  {
    id: 'd1',
    chatJid: 'dream:manual:chat:a:1',
    content: 'Lisbon scratch',
    timestamp: '2026-11-22T08:00:00.000Z',
  },
  ...Array.from({ length: 2600 }, (_, i) => ({
    id: `m${String(i).padStart(5, '0')}`,
    chatJid: ['chat:a', 'chat:a:branch', 'chat:c'][i % 3] as string,
    content: i % 7 ? `message ${i} about the garden` : `Planning the Lisbon trip, part ${i}\u0000`,
    timestamp: new Date(Date.parse('2026-11-21T00:00:00.000Z') + i * 90_000).toISOString(),
    isBotMessage: i % 4 === 0,
  })),
]
const BRANCHES = [{ branchId: 'br1', chatJid: 'chat:a:branch', rootChatJid: 'chat:a' }]

function readerWorld() {
  const world = makeToolWorld({}, { messages: MESSAGES, branches: BRANCHES })
  const reader = openMessageReader(world.messages)
  onTestFinished(() => reader.close())
  const toolsOn = (context: ToolContext) => createToolSet(context, { messagePageMax: MESSAGE_PAGE_CEILING })
  return {
    ...world,
    reader,
    onMain: toolsOn(world.context),
    onReader: toolsOn({ ...world.context, messageReader: reader }),
    toolsOn,
  }
}

/** Calls `name` on both tool sets, following "next" cursors, and returns every result of each. */
async function bothWays(
  world: ReturnType<typeof readerWorld>,
  name: string,
  input: Record<string, unknown>,
): Promise<[ToolResult[], ToolResult[]]> {
  const follow = async (tools: typeof world.onMain): Promise<ToolResult[]> => {
    const results = [await tools.call(name, input)]
    for (let last = results[0]; last?.ok; last = results.at(-1)) {
      const next = (JSON.parse(last.content) as { next?: string | null }).next
      if (!next) break
      results.push(await tools.call(name, { ...input, cursor: next }))
    }
    return results
  }
  return [await follow(world.onMain), await follow(world.onReader)]
}

describe('openMessageReader', () => {
  it('answers every message tool call on its thread with exactly what the calling thread returns', async () => {
    const world = readerWorld()
    expect(world.reader.onThread).toBe(true)
    const calls: [string, Record<string, unknown>][] = [
      ['get_messages', {}],
      ['get_messages', { limit: MESSAGE_PAGE_CEILING * 2 }],
      ['get_messages', { limit: 700, chat: 'chat:a' }],
      ['get_messages', { day: '2026-11-22', limit: 500 }],
      ['get_messages', { start: '2026-11-01T00:00:00Z', end: '2026-11-21T12:00:00Z', limit: 300 }],
      ['search_messages', { query: 'LISBON trip', limit: 100 }],
      ['search_messages', { query: 'garden', chat: 'chat:c', limit: 1000 }],
      ['search_messages', { query: 'scratch' }],
      ['list_chats', {}],
    ]
    let pages = 0
    for (const [name, input] of calls) {
      const [onMain, onReader] = await bothWays(world, name, input)
      expect(onReader, `${name} ${JSON.stringify(input)}`).toEqual(onMain)
      expect(onMain.every((result) => result.ok)).toBe(true)
      pages += onMain.length
    }
    // The bulk read took two pages of MESSAGE_PAGE_CEILING; the others paged by cursor too.
    expect(pages).toBeGreaterThan(calls.length + 5)
    expect(world.onReader.calls().map((call) => call.preview)).toEqual(
      world.onMain.calls().map((call) => call.preview),
    )
  })

  it('still refuses, on the calling thread, what lies outside the window or in a dream channel', async () => {
    const world = readerWorld()
    const refused: [string, Record<string, unknown>][] = [
      ['get_messages', { chat: 'dream:manual:chat:a:1' }],
      ['search_messages', { query: 'lisbon', chat: 'dream:manual:chat:a:1' }],
      ['get_messages', { day: '2026-11-20' }],
      ['get_messages', { cursor: 'not-a-cursor' }],
      ['get_messages', { limit: -1 }],
    ]
    for (const [name, input] of refused) {
      const [onMain, onReader] = await bothWays(world, name, input)
      expect(onReader).toEqual(onMain)
      expect(onReader[0]).toMatchObject({ ok: false })
    }
    expect(world.onReader.calls().map((call) => call.code)).toEqual([
      'MESSAGES_OUT_OF_SCOPE',
      'MESSAGES_OUT_OF_SCOPE',
      'MESSAGES_OUT_OF_SCOPE',
      'TOOL_INPUT_INVALID',
      'TOOL_INPUT_INVALID',
    ])
  })

  it('reads on its own connection: the calling thread’s is never asked for a page or the chat list', async () => {
    const world = readerWorld()
    const refuse = () => {
      throw new Error('the main connection was read')
    }
    const untouchable = Object.create(world.messages, {
      iterateWindow: { value: refuse },
      summarizeWindowInSlices: { value: refuse },
    }) as MessagesDb
    const tools = world.toolsOn({ ...world.context, messages: untouchable, messageReader: world.reader })
    for (const [name, input] of [
      ['get_messages', { limit: MESSAGE_PAGE_CEILING }],
      ['search_messages', { query: 'garden' }],
      ['list_chats', {}],
    ] as const) {
      expect(await tools.call(name, input), name).toMatchObject({ ok: true })
    }
    // The same calls on the calling thread do read it (so the check above can fail).
    const direct = world.toolsOn({ ...world.context, messages: untouchable })
    expect(await direct.call('list_chats', {})).toMatchObject({ ok: false, code: 'TOOL_FAILED' })
  })

  it("turns the reader thread's error into the refusal the tool set gives, and opens again next call", async () => {
    const world = readerWorld()
    const file = world.paths.messagesDb
    renameSync(file, `${file}.away`)
    try {
      const result = await world.onReader.call('get_messages', {})
      expect(result).toMatchObject({ ok: false, code: 'MESSAGES_DB_MISSING' })
      expect(result.content).toContain('messages database not found')
    } finally {
      renameSync(`${file}.away`, file)
    }
    const [onMain, onReader] = await bothWays(world, 'get_messages', { limit: 50 })
    expect(onReader).toEqual(onMain)
  })

  it('reads a rollback-journal DB on the calling thread, so a host’s DB is locked as before', () => {
    const world = makeToolWorld({}, { messages: MESSAGES.slice(0, 5) })
    world.messages.db.pragma('journal_mode = DELETE')
    const reader = openMessageReader(world.messages)
    expect(reader.onThread).toBe(false)
  })

  it('gathers a dream’s seeding of 2,000+ messages on its thread, the same notes as on the calling thread', async () => {
    const day = (chat: string, start: string, count: number, stepMinutes: number): MessageSpec[] =>
      Array.from({ length: count }, (_, i) => ({
        chatJid: chat,
        content: `note ${i} on the garden, the ferry and invoice ${i % 13}`,
        timestamp: new Date(Date.parse(start) + i * stepMinutes * 60_000).toISOString(),
        isBotMessage: i % 3 === 0,
      }))
    const small = day('chat:a', '2026-11-21T00:00:00Z', 1_500, 2)
    const larger = [...small, ...day('chat:c', '2026-11-22T00:00:00Z', 900, 3)]
    for (const [messages, readsHere] of [
      [small, true],
      [larger, false],
    ] as const) {
      const seeded: Record<string, string>[] = []
      for (const elsewhere of [false, true]) {
        const world = makeToolWorld({}, { messages: [...messages] })
        const reader = openMessageReader(world.messages)
        onTestFinished(() => reader.close())
        let readHere = 0
        // Counts the calling thread's reads of the window; its counts and the note writes stay here.
        const read = world.messages.iterateWindow.bind(world.messages)
        world.messages.iterateWindow = (start, end) => (readHere++, read(start, end))
        await seedDailyNotes({
          ...{ paths: world.paths, config: world.config, messages: world.messages, window: world.window },
          ...(elsewhere ? { gatherElsewhere: (plan: GatherPlan) => reader.seedDays(plan) } : {}),
        })
        expect(readHere, `${messages.length} messages, elsewhere ${elsewhere}`).toBe(
          elsewhere && !readsHere ? 0 : 1,
        )
        seeded.push(
          Object.fromEntries(
            readdirSync(world.paths.daily).map((name) => [
              name,
              readFileSync(join(world.paths.daily, name), 'utf8'),
            ]),
          ),
        )
      }
      expect(Object.keys(seeded[0] ?? {}).length).toBeGreaterThan(1)
      expect(seeded[1]).toEqual(seeded[0])
    }
  })
})
