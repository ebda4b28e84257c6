// Message tools on a real messages DB: window bounds, cursor paging, search, chat list, no dream channels.
import { describe, expect, it } from 'vitest'
import { createToolSet } from '../../src/tools/tool-set.js'
import { MESSAGE_MAX_CHARS } from '../../src/tools/message-query.js'
import { DREAM_PAGE_MAX, MESSAGE_PAGE_CEILING } from '../../src/tools/message-tools.js'
import { flatPageMessages, type FlatPageMessage, type PageChatJson } from '../../src/tools/message-json.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { makeToolWorld } from './world.js'

interface PageJson {
  /** The page's messages read flat, each with its run's chat fields (as the offline engine reads them). */
  messages: FlatPageMessage[]
  next: string | null
  note?: string
  /** The page as the model gets it. */
  raw: { chats: PageChatJson[] }
}

// Window: 2026-11-21 … 2026-11-23 UTC.
const BASE: MessageSpec[] = [
  { id: 'old', chatJid: 'chat:a', content: 'before the window', timestamp: '2026-11-20T23:59:59.000Z' },
  { id: 'a1', chatJid: 'chat:a', content: 'Planning the Lisbon trip', timestamp: '2026-11-21T08:00:00.000Z' },
  {
    id: 'a2',
    chatJid: 'chat:a',
    content: 'Booked flights to LISBON',
    timestamp: '2026-11-22T09:00:00.000Z',
    isBotMessage: true,
  },
  {
    id: 'b1',
    chatJid: 'chat:a:branch',
    content: 'Lisbon hotel options',
    timestamp: '2026-11-22T10:00:00.000Z',
  },
  { id: 'c1', chatJid: 'chat:c', content: 'Groceries: tea, bread', timestamp: '2026-11-23T07:30:00.000Z' },
  {
    id: 'd1',
    chatJid: 'dream:manual:chat:a:1',
    content: 'Lisbon dream scratch',
    timestamp: '2026-11-23T08:00:00.000Z',
  },
  { id: 'new', chatJid: 'chat:c', content: 'after the window', timestamp: '2026-11-24T00:00:00.000Z' },
]
const BRANCHES = [{ branchId: 'br1', chatJid: 'chat:a:branch', rootChatJid: 'chat:a' }]

function messageWorld(messages: MessageSpec[] = BASE, flags = {}, turn: { isDream?: boolean } = {}) {
  const world = makeToolWorld({}, { messages, branches: BRANCHES, flags })
  const tools = createToolSet({ ...world.context, ...turn })
  const page = async (name: string, input: unknown): Promise<PageJson> => {
    const result = await tools.call(name, input)
    expect(result.ok, result.content).toBe(true)
    const raw = JSON.parse(result.content) as PageJson['raw'] & Omit<PageJson, 'messages' | 'raw'>
    return { ...raw, messages: flatPageMessages(raw), raw }
  }
  return { ...world, tools, page }
}

describe('get_messages', () => {
  it('returns the window oldest first with session roots, bot marks and senders, dream channels left out', async () => {
    const { page } = messageWorld()
    const result = await page('get_messages', {})
    expect(result.messages.map((m) => m.id)).toEqual(['a1', 'a2', 'b1', 'c1'])
    expect(result.next).toBeNull()
    expect(result.messages[1]).toEqual({
      id: 'a2',
      chat: 'chat:a',
      root: 'chat:a',
      chat_name: 'chat:a',
      ts: '2026-11-22T09:00:00.000Z',
      sender: 'Assistant',
      bot: true,
      content: 'Booked flights to LISBON',
    })
    expect(result.messages[2]).toMatchObject({
      id: 'b1',
      chat: 'chat:a:branch',
      root: 'chat:a',
      sender: 'Alex',
    })
    expect(result.messages[2]).not.toHaveProperty('bot')
  })

  it('gives each chat once per run of its messages: rows carry no chat fields and no role', async () => {
    const { page } = messageWorld()
    const { raw } = await page('get_messages', {})
    expect(raw.chats.map(({ messages, ...chat }) => [chat, messages.map((m) => m.id)])).toEqual([
      [{ chat: 'chat:a' }, ['a1', 'a2']],
      [{ chat: 'chat:a:branch', root: 'chat:a' }, ['b1']],
      [{ chat: 'chat:c' }, ['c1']],
    ])
    for (const message of raw.chats.flatMap((chat) => chat.messages)) {
      expect(
        Object.keys(message).filter((key) => ['chat', 'root', 'chat_name', 'role'].includes(key)),
      ).toEqual([])
    }
  })

  it('marks a person’s message sent from the exporting account (from_me), and no other', async () => {
    const { page } = messageWorld([
      { id: 'g1', chatJid: 'group', content: 'my sister is visiting', timestamp: '2026-11-21T08:00:00.000Z' },
      {
        ...{ id: 'g2', chatJid: 'group', content: 'mine too', timestamp: '2026-11-21T08:01:00.000Z' },
        isFromMe: true,
      },
      // A bot account's own replies carry is_from_me too: they are the assistant's, not the owner's.
      {
        ...{ id: 'g3', chatJid: 'group', content: 'noted', timestamp: '2026-11-21T08:02:00.000Z' },
        ...{ isFromMe: true, isBotMessage: true },
      },
    ])
    const { messages } = await page('get_messages', {})
    expect(messages.map((m) => [m.id, m.from_me, m.bot])).toEqual([
      ['g1', undefined, undefined],
      ['g2', true, undefined],
      ['g3', undefined, true],
    ])
  })

  it('pages with a cursor over more messages than the limit, each exactly once', async () => {
    const many: MessageSpec[] = []
    for (let i = 0; i < 23; i++) {
      // Pairs share a timestamp across chats so the cursor must break ties on chat and id.
      const ts = new Date(Date.parse('2026-11-22T00:00:00.000Z') + Math.floor(i / 2) * 60_000).toISOString()
      many.push({
        id: `p${String(i).padStart(2, '0')}`,
        chatJid: i % 2 ? 'chat:x' : 'chat:y',
        content: `n${i}`,
        timestamp: ts,
      })
    }
    const { page } = messageWorld([...BASE, ...many])
    const seen: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const result = await page('get_messages', {
        day: '2026-11-22',
        limit: 5,
        ...(cursor ? { cursor } : {}),
      })
      expect(result.messages.length).toBeLessThanOrEqual(5)
      seen.push(...result.messages.map((m) => m.id))
      cursor = result.next ?? undefined
      pages++
    } while (cursor && pages < 20)
    const expected = [...many.map((m) => m.id as string), 'a2', 'b1']
    expect(seen).toHaveLength(expected.length)
    expect(new Set(seen)).toEqual(new Set(expected))
    expect(pages).toBe(Math.ceil(expected.length / 5))
  })

  it('clamps start/end to the window and says so; a range outside the window is empty', async () => {
    const { page } = messageWorld()
    const clamped = await page('get_messages', { start: '2026-11-01T00:00:00Z', end: '2026-12-31T00:00:00Z' })
    expect(clamped.messages.map((m) => m.id)).toEqual(['a1', 'a2', 'b1', 'c1'])
    expect(clamped.note).toMatch(/range clamped to the window \(2026-11-21 … 2026-11-23, UTC\)/)
    const inside = await page('get_messages', { start: '2026-11-22T09:30:00Z', end: '2026-11-23T07:30:00Z' })
    expect(inside.messages.map((m) => m.id)).toEqual(['b1'])
    expect(inside.note).toBeUndefined()
    expect((await page('get_messages', { end: '2026-11-20T00:00:00Z' })).messages).toEqual([])
  })

  it('filters by a chat or by the root of its session tree', async () => {
    const { page } = messageWorld()
    expect((await page('get_messages', { chat: 'chat:a' })).messages.map((m) => m.id)).toEqual([
      'a1',
      'a2',
      'b1',
    ])
    expect((await page('get_messages', { chat: 'chat:a:branch' })).messages.map((m) => m.id)).toEqual(['b1'])
  })

  it('caps a chat turn’s limit at tools.maxResults, and the content of long messages', async () => {
    const long = 'word '.repeat(1000)
    const { page } = messageWorld(
      [...BASE, { id: 'long', chatJid: 'chat:c', content: long, timestamp: '2026-11-23T09:00:00.000Z' }],
      { tools: { maxResults: 2 } },
      { isDream: false },
    )
    const first = await page('get_messages', { limit: 100 })
    expect(first.messages).toHaveLength(2)
    expect(first.note).toBe('limit capped at 2')
    const last = await page('get_messages', { chat: 'chat:c' })
    const content = last.messages.find((m) => m.id === 'long')?.content ?? ''
    expect(content).toBe(
      `${long.slice(0, MESSAGE_MAX_CHARS)}… [truncated: ${MESSAGE_MAX_CHARS} of ${long.length} chars]`,
    )
  })

  it('serves bulk pages to a tool set that allows them, never past the ceiling, the window or into dream channels', async () => {
    const bulk: MessageSpec[] = Array.from({ length: MESSAGE_PAGE_CEILING + 500 }, (_, i) => ({
      id: `bulk${String(i).padStart(5, '0')}`,
      chatJid: i % 2 ? 'chat:a' : 'chat:b',
      content: `message ${i}`,
      timestamp: new Date(Date.parse('2026-11-21T00:00:00.000Z') + i * 60_000).toISOString(),
    }))
    const world = makeToolWorld({}, { messages: [...BASE, ...bulk], branches: BRANCHES })
    const read = async (tools: ReturnType<typeof createToolSet>, input: object): Promise<PageJson> => {
      const result = await tools.call('get_messages', input)
      expect(result.ok, result.content).toBe(true)
      const raw = JSON.parse(result.content) as PageJson['raw'] & Omit<PageJson, 'messages' | 'raw'>
      return { ...raw, messages: flatPageMessages(raw), raw }
    }
    const bulkTools = createToolSet(world.context, { messagePageMax: MESSAGE_PAGE_CEILING * 4 })
    const first = await read(bulkTools, { limit: MESSAGE_PAGE_CEILING * 4 })
    expect(first.messages).toHaveLength(MESSAGE_PAGE_CEILING)
    expect(first.note).toBe(`limit capped at ${MESSAGE_PAGE_CEILING}`)
    const rest = await read(bulkTools, { limit: MESSAGE_PAGE_CEILING, cursor: first.next })
    expect(rest.next).toBeNull()
    const ids = [...first.messages, ...rest.messages].map((m) => m.id)
    expect(new Set(ids).size).toBe(bulk.length + 4)
    for (const outside of ['old', 'new', 'd1']) expect(ids).not.toContain(outside)
    // A model's dream pages by DREAM_PAGE_MAX, a chat turn by tools.maxResults.
    const modelPage = await read(createToolSet(world.context), { limit: MESSAGE_PAGE_CEILING })
    expect(modelPage.messages).toHaveLength(DREAM_PAGE_MAX)
    const lookup = createToolSet({ ...world.context, isDream: false })
    const lookupPage = await read(lookup, { limit: MESSAGE_PAGE_CEILING })
    expect(lookupPage.messages).toHaveLength(world.config.tools.maxResults)
  })

  it('continues the first call’s day and chat from the cursor alone, never running on into the next day', async () => {
    const day = (d: string, chat: string, n: number): MessageSpec[] =>
      Array.from({ length: n }, (_, i) => ({
        id: `${chat}-${d}-${i}`,
        chatJid: chat,
        content: `message ${i} of ${d}`,
        timestamp: `${d}T1${i % 10}:00:0${Math.floor(i / 10)}.000Z`,
      }))
    const messages = [
      ...day('2026-11-21', 'chat:a', 5),
      ...day('2026-11-21', 'chat:c', 3),
      ...day('2026-11-22', 'chat:a', 4),
    ]
    const { page } = messageWorld(messages)
    const first = await page('get_messages', { day: '2026-11-21', chat: 'chat:a', limit: 2 })
    const seen = first.messages.map((m) => m.id)
    let next = first.next
    while (next) {
      const more = await page('get_messages', { limit: 2, cursor: next })
      seen.push(...more.messages.map((m) => m.id))
      next = more.next
    }
    expect(seen).toEqual(day('2026-11-21', 'chat:a', 5).map((m) => m.id))
    // A search's cursor keeps its chat as well.
    const hits = await page('search_messages', { query: 'message', chat: 'chat:c', limit: 2 })
    const rest = await page('search_messages', { query: 'message', limit: 5, cursor: hits.next })
    expect([...hits.messages, ...rest.messages].map((m) => m.chat)).toEqual(['chat:c', 'chat:c', 'chat:c'])
  })

  it('gives a dream whole pages by default: 200 messages, not a chat turn’s 20', async () => {
    const many = Array.from({ length: 230 }, (_, i) => ({
      id: `m${String(i).padStart(3, '0')}`,
      chatJid: 'chat:a',
      content: `line ${i}`,
      timestamp: new Date(Date.parse('2026-11-21T08:00:00.000Z') + i * 1000).toISOString(),
    }))
    const world = makeToolWorld({}, { messages: many })
    const dream = createToolSet({ ...world.context, isDream: true })
    const lookup = createToolSet({ ...world.context, isDream: false })
    const count = async (tools: typeof dream): Promise<number> =>
      flatPageMessages(JSON.parse((await tools.call('get_messages', {})).content)).length
    expect(await count(dream)).toBe(200)
    expect(await count(lookup)).toBe(20)
  })

  it('refuses a cursor it did not issue', async () => {
    const { tools } = messageWorld()
    const result = await tools.call('get_messages', { cursor: 'not-a-cursor' })
    expect(result).toMatchObject({ ok: false, code: 'TOOL_INPUT_INVALID' })
    expect(result.content).toMatch(/pass "next" unchanged/)
  })
})

describe('search_messages', () => {
  it('matches every term case-insensitively within the window, never in dream channels', async () => {
    const { page } = messageWorld()
    expect((await page('search_messages', { query: 'lisbon' })).messages.map((m) => m.id)).toEqual([
      'a1',
      'a2',
      'b1',
    ])
    expect((await page('search_messages', { query: 'LISBON hotel' })).messages.map((m) => m.id)).toEqual([
      'b1',
    ])
    expect((await page('search_messages', { query: 'window' })).messages).toEqual([])
    expect((await page('search_messages', { query: 'scratch' })).messages).toEqual([])
  })

  it('pages search hits with the same cursor', async () => {
    const { page } = messageWorld()
    const first = await page('search_messages', { query: 'lisbon', limit: 2 })
    expect(first.messages.map((m) => m.id)).toEqual(['a1', 'a2'])
    const second = await page('search_messages', { query: 'lisbon', limit: 2, cursor: first.next })
    expect(second.messages).toEqual([expect.objectContaining({ id: 'b1' })])
    expect(second.next).toBeNull()
  })

  it('lets timers run while it searches a long window', async () => {
    const many: MessageSpec[] = Array.from({ length: 20_000 }, (_, i) => ({
      id: `s${i}`,
      chatJid: `chat:${i % 4}`,
      content: `note ${i} about the garden`,
      timestamp: new Date(Date.parse('2026-11-21T00:00:00.000Z') + i * 10_000).toISOString(),
    }))
    const world = makeToolWorld({}, { messages: many })
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    // The tick count each row is read at: it moves only if timers ran in the middle of the search.
    const readAt: number[] = []
    const db = world.context.messages
    const messages = Object.create(db, {
      iterateWindow: {
        value: function* (start: Date, end: Date) {
          for (const row of db.iterateWindow(start, end)) {
            readAt.push(ticks)
            yield row
          }
        },
      },
    }) as typeof db
    try {
      const result = await createToolSet({ ...world.context, messages }).call('search_messages', {
        query: 'nowhere',
      })
      expect(JSON.parse(result.content)).toMatchObject({ chats: [], next: null })
    } finally {
      clearInterval(timer)
    }
    // 20,000 rows take well over one 10 ms slice on any machine.
    expect(readAt).toHaveLength(many.length)
    expect(readAt.at(-1)).toBeGreaterThan(readAt[0] ?? 0)
  })
})

describe('list_chats', () => {
  it('lists chats active in the window with counts and bounds, most recent first, without dream channels', async () => {
    const { tools } = messageWorld()
    const result = await tools.call('list_chats', {})
    const chat = (jid: string, root: string, messages: number, first: string, last: string) => ({
      jid,
      name: jid,
      root,
      messages,
      first: `2026-11-${first}:00.000Z`,
      last: `2026-11-${last}:00.000Z`,
    })
    expect(JSON.parse(result.content)).toEqual({
      chats: [
        chat('chat:c', 'chat:c', 1, '23T07:30', '23T07:30'),
        chat('chat:a:branch', 'chat:a', 1, '22T10:00', '22T10:00'),
        chat('chat:a', 'chat:a', 2, '21T08:00', '22T09:00'),
      ],
    })
  })
})
