// A chat message as the assistant host stores and shows it, and the one way it is written to the messages DB.
import { randomBytes } from 'node:crypto'
import { roleOf, type MessageRole, type MessageRow, type MessagesDb } from '../db/messages.js'

export interface ChatMessage {
  id: string
  chatJid: string
  role: MessageRole
  sender: string | null
  senderName: string | null
  content: string
  /** ISO 8601 UTC. */
  timestamp: string
}

export interface NewChatMessage {
  chatJid: string
  role: MessageRole
  sender: string
  senderName: string
  content: string
  timestamp: string
}

export function toChatMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    chatJid: row.chatJid,
    role: roleOf(row),
    sender: row.sender,
    senderName: row.senderName,
    content: row.content,
    timestamp: row.timestamp,
  }
}

/** A unique id that sorts by time within a chat (the DB orders equal timestamps by id). */
export function newMessageId(role: MessageRole, at: string): string {
  return `${role === 'user' ? 'u' : 'a'}-${at.replace(/[-:.TZ]/g, '')}-${randomBytes(4).toString('hex')}`
}

/** Writes one message (creating the chat row when new) and returns it as stored. */
export function storeChatMessage(messages: MessagesDb, message: NewChatMessage): ChatMessage {
  const id = newMessageId(message.role, message.timestamp)
  messages.upsertChat(message.chatJid, null, message.timestamp)
  messages.insertMessages([
    {
      id,
      chatJid: message.chatJid,
      sender: message.sender,
      senderName: message.senderName,
      content: message.content,
      timestamp: message.timestamp,
      isFromMe: false,
      isBotMessage: message.role === 'assistant',
    },
  ])
  return { id, ...message }
}

/** Rows one read may return; far above any page of history. */
const SCAN_LIMIT = 5_000
/** Look-back spans tried in turn, newest first, until one holds enough messages. */
const SPANS_MS = [
  3_600_000,
  86_400_000,
  7 * 86_400_000,
  30 * 86_400_000,
  365 * 86_400_000,
  Number.POSITIVE_INFINITY,
]

/**
 * The newest `limit` messages of a chat, oldest first. The DB reads oldest-first, so this widens a look-back
 * window from `now` until it holds `limit` rows: cost follows the page, not the chat's whole history.
 */
export function recentChatMessages(
  messages: MessagesDb,
  chatJid: string,
  limit: number,
  now: Date,
): ChatMessage[] {
  let newer: MessageRow[] = []
  let newerStart: Date | undefined
  for (const span of SPANS_MS) {
    const start = Number.isFinite(span) ? new Date(now.getTime() - span) : undefined
    const rows = messages.listChatMessages(chatJid, {
      ...(start ? { start } : {}),
      ...(newerStart ? { end: newerStart } : {}),
      limit: SCAN_LIMIT,
    })
    // Each read covers only what the last window did not, so rows are never counted twice and the newest
    // are only ever cut when one window alone holds more than SCAN_LIMIT messages.
    const combined = [...rows, ...newer]
    if (combined.length >= limit || !start) return combined.slice(-limit).map(toChatMessage)
    newer = combined
    newerStart = start
  }
  return newer.slice(-limit).map(toChatMessage)
}
