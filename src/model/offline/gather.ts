// Signal, first half: reads the window's messages through get_messages, page by page, grouped by local day.
// When the tool-call budget cannot cover the whole window, it reads what still needs a summary first.
import { localDayOf } from '../../time/local-day.js'
import type { ToolClient } from './tool-client.js'
import { yieldToLoop } from './yield.js'
import type { WindowMessage } from './types.js'

/** Messages per get_messages page; the tool caps it at config.tools.maxResults anyway. */
const PAGE_SIZE = 50

export interface GatherPlan {
  timeZone: string
  /** Days not yet complete, oldest first, with their watermark (null: nothing summarised yet). */
  pending: ReadonlyMap<string, string | null>
  /** Tool calls to keep for the writes that follow. */
  reserve: number
}

export interface Gathered {
  byDay: Map<string, WindowMessage[]>
  /** False when the budget allowed only the messages still to summarise. */
  isWhole: boolean
}

interface MessageJson {
  id?: unknown
  chat?: unknown
  root?: unknown
  chat_name?: unknown
  ts?: unknown
  role?: unknown
  sender?: unknown
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

function toWindowMessage(row: MessageJson, timeZone: string): WindowMessage | null {
  const ts = asText(row.ts)
  if (Number.isNaN(Date.parse(ts)) || asText(row.id) === '') return null
  const chat = asText(row.chat)
  return {
    id: asText(row.id),
    chat,
    root: asText(row.root) || chat,
    chatName: asText(row.chat_name) || chat,
    ts,
    role: row.role === 'assistant' ? 'assistant' : 'user',
    sender: asText(row.sender),
    content: asText(row.content),
    day: cachedLocalDay(ts, timeZone),
  }
}

/** Pages through one get_messages query into `byDay`; false when it stopped early (budget or refusal). */
async function readPages(
  client: ToolClient,
  query: Record<string, unknown>,
  plan: GatherPlan,
  byDay: Map<string, WindowMessage[]>,
): Promise<boolean> {
  const seen = new Set([...byDay.values()].flat().map((message) => `${message.chat}\u0000${message.id}`))
  let cursor: string | null = null
  do {
    if (client.remaining <= plan.reserve) return false
    const page = cursor === null ? { ...query, limit: PAGE_SIZE } : { ...query, limit: PAGE_SIZE, cursor }
    await yieldToLoop()
    const result = await client.call('get_messages', page)
    if (!result.ok) {
      client.problems.push(`get_messages: ${result.content}`)
      return false
    }
    const json = JSON.parse(result.content) as { messages?: MessageJson[]; next?: unknown }
    for (const row of json.messages ?? []) {
      const message = toWindowMessage(row, plan.timeZone)
      if (!message || seen.has(`${message.chat}\u0000${message.id}`)) continue
      seen.add(`${message.chat}\u0000${message.id}`)
      const list = byDay.get(message.day) ?? []
      list.push(message)
      byDay.set(message.day, list)
    }
    const next: string | null = typeof json.next === 'string' ? json.next : null
    // A cursor that does not move would loop forever; the tool never returns one, but stop if it does.
    cursor = next !== null && next !== cursor ? next : null
  } while (cursor !== null)
  return true
}

// Messages in the window, from list_chats; null when it cannot be counted.
async function countWindow(client: ToolClient): Promise<number | null> {
  const result = await client.call('list_chats', {})
  if (!result.ok) return null
  const chats = (JSON.parse(result.content) as { chats?: { messages?: unknown }[] }).chats ?? []
  return chats.reduce((total, chat) => total + (typeof chat.messages === 'number' ? chat.messages : 0), 0)
}

/** The window's messages by local day: all of them when the budget allows, else those still to summarise. */
export async function gatherWindow(client: ToolClient, plan: GatherPlan): Promise<Gathered> {
  const byDay = new Map<string, WindowMessage[]>()
  const total = await countWindow(client)
  const pages = total === null ? 0 : Math.ceil(total / PAGE_SIZE) + 1
  if (pages + plan.reserve <= client.remaining) {
    const isWhole = await readPages(client, {}, plan, byDay)
    return { byDay, isWhole }
  }
  for (const [day, watermark] of plan.pending) {
    const isRead = await readPages(
      client,
      watermark === null ? { day } : { day, start: watermark },
      plan,
      byDay,
    )
    if (!isRead) break
  }
  client.problems.push(
    `the window's ${total} messages need ${pages} get_messages pages, more than the tool-call budget leaves; ` +
      'only messages still to summarise were read',
  )
  return { byDay, isWhole: false }
}
