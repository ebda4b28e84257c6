// Signal, first half: reads the window's messages through get_messages, page by page, grouped by local day.
// When the tool-call budget cannot cover the whole window, it reads what still needs a summary first.
import { OFFLINE_PAGE_SIZE } from './page-size.js'
import { localDayOf } from '../../time/local-day.js'
import type { ToolClient } from './tool-client.js'
import { flatPageMessages } from '../../tools/message-json.js'
import type { ToolResult } from '../../tools/types.js'
import { withoutControls } from './text.js'
import { termsOf, WordWeights, type WordCounts } from './word-weights.js'
import { yieldToLoop } from './yield.js'
import type { WindowMessage } from './types.js'

/**
 * Messages per get_messages page. The engine has no context window to fill, so it reads in bulk (its provider
 * asks the tool set for pages this big); the tools still cap every page.
 */
export const PAGE_SIZE = OFFLINE_PAGE_SIZE

export interface GatherPlan {
  timeZone: string
  /** Days not yet complete, oldest first, with their watermark (null: nothing summarised yet). */
  pending: ReadonlyMap<string, string | null>
  /** Tool calls to keep for the writes that follow. */
  reserve: number
  /** Word counts of the messages before the window, which the window's own are added to. */
  history?: WordCounts | undefined
}

export interface Gathered {
  byDay: Map<string, WindowMessage[]>
  /** Word weights over every gathered message, counted as the pages arrived. */
  weights: WordWeights
  /** False when the budget allowed only the messages still to summarise. */
  isWhole: boolean
}

interface MessageJson {
  id?: unknown
  chat?: unknown
  root?: unknown
  chat_name?: unknown
  ts?: unknown
  bot?: unknown
  sender?: unknown
  from_me?: unknown
  content?: unknown
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : '')

// Local midnight falls on a quarter hour in every zone, so all instants of one UTC quarter hour share a local day:
// one zone conversion per quarter hour instead of one per message.
const QUARTER_HOUR_MS = 15 * 60_000
const dayCache = new Map<string, string>()

function cachedLocalDay(ts: string, timeZone: string): string {
  const bucket = Math.floor(Date.parse(ts) / QUARTER_HOUR_MS) * QUARTER_HOUR_MS
  const key = `${bucket} ${timeZone}`
  let day = dayCache.get(key)
  if (day === undefined) {
    if (dayCache.size > 50_000) dayCache.clear()
    day = localDayOf(new Date(bucket), timeZone)
    dayCache.set(key, day)
  }
  return day
}

export function toWindowMessage(row: MessageJson, timeZone: string): WindowMessage | null {
  const ts = asText(row.ts)
  if (Number.isNaN(Date.parse(ts)) || asText(row.id) === '') return null
  const chat = asText(row.chat)
  return {
    id: asText(row.id),
    chat,
    root: asText(row.root) || chat,
    chatName: withoutControls(asText(row.chat_name)) || chat,
    ts,
    role: row.bot === true ? 'assistant' : 'user',
    sender: withoutControls(asText(row.sender)),
    fromMe: row.from_me === true,
    content: withoutControls(asText(row.content)),
    day: cachedLocalDay(ts, timeZone),
  }
}

/** How a paged read ended: every page read, stopped early (budget or refusal), or pages too small to finish. */
type PagesRead = 'all' | 'stopped' | 'pages-too-small'

/** Where gathered messages go: grouped by day, each message once, every one counted into the word weights. */
interface Collector {
  byDay: Map<string, WindowMessage[]>
  /** Chat and id of every message in byDay, shared by all reads so one day's pages never rebuild it. */
  seen: Set<string>
  weights: WordWeights
  /** Called with each day whose messages are all read: the pages come oldest first, so a later day ends it. */
  onDayRead: (day: string, messages: readonly WindowMessage[]) => void
  /** The latest day read so far. */
  latestDay: string | null
}

async function collectPage(rows: readonly MessageJson[], timeZone: string, into: Collector): Promise<void> {
  for (const row of rows) {
    const message = toWindowMessage(row, timeZone)
    if (!message || into.seen.has(`${message.chat}\u0000${message.id}`)) continue
    into.seen.add(`${message.chat}\u0000${message.id}`)
    const latest = into.latestDay
    if (latest === null || message.day > latest) {
      if (latest !== null) into.onDayRead(latest, into.byDay.get(latest) ?? [])
      into.latestDay = message.day
    }
    const list = into.byDay.get(message.day) ?? []
    list.push(message)
    into.byDay.set(message.day, list)
    into.weights.add(termsOf(message.content))
    await yieldToLoop()
  }
}

/**
 * Pages through one get_messages query into `into`. `fits`, when given, is asked after the first page whether
 * the rest still fits the budget at the page size the tools actually serve (they may cap below PAGE_SIZE).
 * The next page is asked for before this one is taken apart, so the tools read it while the engine works.
 */
async function readPages(
  client: ToolClient,
  query: Record<string, unknown>,
  plan: GatherPlan,
  into: Collector,
  fits?: (pageSize: number) => boolean,
): Promise<PagesRead> {
  const request = async (cursor: string | null): Promise<ToolResult | null> => {
    if (client.remaining <= plan.reserve) return null
    await yieldToLoop()
    return client.call(
      'get_messages',
      cursor === null ? { ...query, limit: PAGE_SIZE } : { ...query, limit: PAGE_SIZE, cursor },
    )
  }
  let cursor: string | null = null
  let result = await request(null)
  for (let isFirst = true; ; isFirst = false) {
    if (result === null) return 'stopped'
    if (!result.ok) {
      client.problems.push(`get_messages: ${result.content}`)
      return 'stopped'
    }
    const json = JSON.parse(result.content) as { next?: unknown }
    const rows: MessageJson[] = flatPageMessages(json)
    const next: string | null = typeof json.next === 'string' ? json.next : null
    // A cursor that does not move would loop forever; the tool never returns one, but stop if it does.
    cursor = next !== null && next !== cursor ? next : null
    if (cursor === null || (isFirst && fits && !fits(rows.length))) {
      await collectPage(rows, plan.timeZone, into)
      return cursor === null ? 'all' : 'pages-too-small'
    }
    const following = request(cursor)
    // Ended however the turn goes: a turn stopped while this page is taken apart must not leave it unhandled.
    following.catch(() => undefined)
    await collectPage(rows, plan.timeZone, into)
    result = await following
  }
}

// Messages in the window, from list_chats; null when it cannot be counted.
async function countWindow(client: ToolClient): Promise<number | null> {
  const result = await client.call('list_chats', {})
  if (!result.ok) return null
  const chats = (JSON.parse(result.content) as { chats?: { messages?: unknown }[] }).chats ?? []
  return chats.reduce((total, chat) => total + (typeof chat.messages === 'number' ? chat.messages : 0), 0)
}

/**
 * The window's messages by local day: all of them when the budget allows, else those still to summarise.
 * `onDayRead` hears of each day as soon as its messages are read (a day read out of order may grow after it).
 */
export async function gatherWindow(
  client: ToolClient,
  plan: GatherPlan,
  onDayRead: Collector['onDayRead'] = () => undefined,
): Promise<Gathered> {
  const into: Collector = {
    byDay: new Map(),
    seen: new Set(),
    weights: new WordWeights(plan.history),
    onDayRead,
    latestDay: null,
  }
  const total = await countWindow(client)
  const pagesAt = (size: number): number => (total === null ? 0 : Math.ceil(total / Math.max(size, 1)) + 1)
  let pages = pagesAt(PAGE_SIZE)
  if (pages + plan.reserve <= client.remaining) {
    const fits = (size: number): boolean => {
      pages = pagesAt(size)
      return pages - 1 + plan.reserve <= client.remaining
    }
    const read = await readPages(client, {}, plan, into, fits)
    if (read !== 'pages-too-small')
      return { byDay: into.byDay, weights: into.weights, isWhole: read === 'all' }
  }
  for (const [day, watermark] of plan.pending) {
    const read = await readPages(client, watermark === null ? { day } : { day, start: watermark }, plan, into)
    if (read !== 'all') break
  }
  client.problems.push(
    `the window's ${total} messages need ${pages} get_messages pages, more than the tool-call budget leaves; ` +
      'only messages still to summarise were read',
  )
  return { byDay: into.byDay, weights: into.weights, isWhole: false }
}
