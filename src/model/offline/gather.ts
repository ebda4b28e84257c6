// Signal, first half: reads the window's messages through get_messages, page by page, grouped by local day.
import { localDayOf } from '../../time/local-day.js'
import type { ToolClient } from './tool-client.js'
import type { WindowMessage } from './types.js'

/** Messages per get_messages page; the tool caps it at config.tools.maxResults anyway. */
const PAGE_SIZE = 50

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
    day: localDayOf(new Date(ts), timeZone),
  }
}

/**
 * Every message of the run's window (the tool bounds it), oldest first, grouped by local day. A page that
 * cannot be read is reported in `client.problems` and ends the scan with what was read so far.
 */
export async function gatherWindow(client: ToolClient, timeZone: string): Promise<Map<string, WindowMessage[]>> {
  const byDay = new Map<string, WindowMessage[]>()
  let cursor: string | null = null
  const seen = new Set<string>()
  do {
    const input: Record<string, unknown> = cursor === null ? { limit: PAGE_SIZE } : { limit: PAGE_SIZE, cursor }
    const result = await client.call('get_messages', input)
    if (!result.ok) {
      client.problems.push(`get_messages: ${result.content}`)
      break
    }
    const page = JSON.parse(result.content) as { messages?: MessageJson[]; next?: unknown }
    for (const row of page.messages ?? []) {
      const message = toWindowMessage(row, timeZone)
      if (!message || seen.has(`${message.chat}\u0000${message.id}`)) continue
      seen.add(`${message.chat}\u0000${message.id}`)
      const list = byDay.get(message.day) ?? []
      list.push(message)
      byDay.set(message.day, list)
    }
    const next: string | null = typeof page.next === 'string' ? page.next : null
    // A cursor that does not move would loop forever; the tool should never return one, but stop if it does.
    cursor = next !== null && next !== cursor ? next : null
  } while (cursor !== null)
  return byDay
}
