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
