// The message tools' results as the model sees them, read from a MessagesDb: one page of the window, or its chats.
// Plain functions of the DB and a resolved query, so a reader thread serves exactly what the calling thread would.
import type { PrivacyRules } from '../privacy/rules.js'
import type { ChatActivity, MessagesDb } from '../db/messages.js'
import { encodeCursor, queryMessages, toMessageJson, type MessageQuery } from './message-query.js'

/** list_chats shows at most this many chats. */
export const LIST_CHATS_MAX = 500

/** get_messages / search_messages: the page `query` selects, with the notes the tool made while checking it. */
export async function readPageJson(
  messages: MessagesDb,
  query: MessageQuery,
  notes: readonly string[],
): Promise<string> {
  const page = await queryMessages(messages, query)
  const result: { messages: Record<string, string>[]; next: string | null; note?: string } = {
    messages: page.messages.map(toMessageJson),
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
