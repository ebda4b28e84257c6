// The message tools' results as the model sees them, read from a MessagesDb: one page of the window, or its chats.
// Plain functions of the DB and a resolved query, so a reader thread serves exactly what the calling thread would.
import type { PrivacyRules } from '../privacy/rules.js'
import type { ChatActivity, MessageRow, MessagesDb } from '../db/messages.js'
import {
  encodeCursor,
  queryMessages,
  sanitizeMessageText,
  toMessageJson,
  type MessageQuery,
  type PageMessageJson,
} from './message-query.js'

/**
 * A run of consecutive messages of one chat in a page: the chat's jid, name and session-tree root once, then its
 * messages. A page is its runs in order, so reading them one after another gives the page's own order.
 */
export interface PageChatJson {
  chat: string
  /** The chat's name, when it has one other than its jid. */
  name?: string
  /** The session tree's root chat, when the chat is a branch. */
  root?: string
  messages: PageMessageJson[]
}

/** get_messages / search_messages' JSON. */
export interface PageJson {
  chats: PageChatJson[]
  next: string | null
  note?: string
}

/** A page's message with its chat's fields, for a reader that wants the rows flat (offline engine, secret guard). */
export interface FlatPageMessage extends PageMessageJson {
  chat: string
  root: string
  chat_name: string
}

/** The messages of `rows` in runs of one chat each. */
export function groupByChat(rows: readonly MessageRow[]): PageChatJson[] {
  const runs: PageChatJson[] = []
  let current: PageChatJson | undefined
  for (const row of rows) {
    if (current?.chat !== row.chatJid) {
      const name = row.chatName === null ? '' : sanitizeMessageText(row.chatName)
      current = {
        chat: row.chatJid,
        ...(name !== '' && name !== row.chatJid ? { name } : {}),
        ...(row.rootJid !== row.chatJid ? { root: row.rootJid } : {}),
        messages: [],
      }
      runs.push(current)
    }
    current.messages.push(toMessageJson(row))
  }
  return runs
}

/** The messages of a parsed page, in its order, each with its chat's jid, root and name. */
export function flatPageMessages(page: unknown): FlatPageMessage[] {
  const chats = (page as { chats?: unknown } | null)?.chats
  if (!Array.isArray(chats)) return []
  const flat: FlatPageMessage[] = []
  for (const run of chats as Partial<PageChatJson>[]) {
    const chat = typeof run.chat === 'string' ? run.chat : ''
    const root = typeof run.root === 'string' && run.root !== '' ? run.root : chat
    const name = typeof run.name === 'string' && run.name !== '' ? run.name : chat
    for (const message of Array.isArray(run.messages) ? run.messages : []) {
      flat.push({ ...message, chat, root, chat_name: name })
    }
  }
  return flat
}

/** list_chats shows at most this many chats. */
export const LIST_CHATS_MAX = 500

/** get_messages / search_messages: the page `query` selects, with the notes the tool made while checking it. */
export async function readPageJson(
  messages: MessagesDb,
  query: MessageQuery,
  notes: readonly string[],
): Promise<string> {
  const page = await queryMessages(messages, query)
  const result: PageJson = {
    chats: groupByChat(page.messages),
    next: page.next ? encodeCursor(page.next) : null,
  }
  if (notes.length > 0) result.note = notes.join('; ')
  return JSON.stringify(result)
}

/** list_chats: the chats with messages in [start, end), most recently active first. */
export async function readChatsJson(
  messages: MessagesDb,
  start: Date,
  end: Date,
  privacy?: PrivacyRules,
): Promise<string> {
  const sorted = await messages.summarizeWindowInSlices(start, end, privacy)
  const result: { chats: ChatActivity[]; note?: string } = { chats: sorted.slice(0, LIST_CHATS_MAX) }
  if (sorted.length > LIST_CHATS_MAX) {
    result.note = `showing ${LIST_CHATS_MAX} of ${sorted.length} chats; use search_messages to find others`
  }
  return JSON.stringify(result)
}
