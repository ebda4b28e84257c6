// One message row as dreamlane reads and writes it: the types, and decoding whatever a host stored.

/** A message as dreamlane reads it, with its session tree resolved. */
export interface MessageRow {
  id: string
  chatJid: string
  /** Root chat of the session tree (the chat itself when it is not a branch). */
  rootJid: string
  chatName: string | null
  sender: string | null
  senderName: string | null
  content: string
  /** ISO 8601 UTC. */
  timestamp: string
  isFromMe: boolean
  isBotMessage: boolean
}

export type MessageRole = 'user' | 'assistant'

export function roleOf(message: Pick<MessageRow, 'isBotMessage'>): MessageRole {
  return message.isBotMessage ? 'assistant' : 'user'
}

/** A message to insert; timestamps are ISO 8601 UTC. */
export interface NewMessage {
  id: string
  chatJid: string
  sender?: string | null
  senderName?: string | null
  content: string
  timestamp: string
  isFromMe?: boolean
  isBotMessage?: boolean
}

export interface NewBranch {
  branchId: string
  chatJid: string
  rootChatJid: string
  parentBranchId?: string | null
  createdAt?: string
}

/** One chat's activity in a window. */
export interface ChatActivity {
  jid: string
  name: string
  root: string
  messages: number
  first: string
  last: string
}

export const DREAM_CHANNEL_PREFIX = 'dream:'

/** Sender of the summaries dreamlane posts. They are about the notes, so dreams never read them back (no self-feeding). */
export const DREAMLANE_SENDER = 'dreamlane'

export interface RawMessage {
  id: string
  chat_jid: string
  root_jid: string
  chat_name: string | null
  sender: string | null
  sender_name: string | null
  content: unknown
  content_blocks?: unknown
  timestamp: string
  is_from_me: number | null
  is_bot_message: number | null
}

const utf8 = new TextDecoder('utf-8', { fatal: false })

/** Message text whatever its storage: TEXT, a BLOB with invalid UTF-8, or only PiClaw's content_blocks. */
function textOf(content: unknown, blocks: unknown): string {
  let text = ''
  if (typeof content === 'string') text = content
  else if (content instanceof Uint8Array) text = utf8.decode(content)
  else if (content != null) text = String(content)
  if (text.trim() !== '' || blocks == null) return text
  try {
    const parsed: unknown = JSON.parse(
      typeof blocks === 'string' ? blocks : utf8.decode(blocks as Uint8Array),
    )
    const list = Array.isArray(parsed) ? parsed : [parsed]
    return list
      .map((block) =>
        block && typeof block === 'object' && typeof (block as { text?: unknown }).text === 'string'
          ? (block as { text: string }).text
          : '',
      )
      .filter(Boolean)
      .join('\n')
  } catch {
    return text
  }
}

/** What a row's chat contributes: its session-tree root and its name. */
export interface ChatOfRow {
  root: string
  name: string | null
}

/** The row dreamlane reads, from a query that joined the chat's root and name. */
export function toRow(raw: RawMessage): MessageRow {
  return {
    id: raw.id,
    chatJid: raw.chat_jid,
    rootJid: raw.root_jid ?? raw.chat_jid,
    chatName: raw.chat_name ?? null,
    sender: raw.sender,
    senderName: raw.sender_name,
    content: textOf(raw.content, raw.content_blocks),
    timestamp: raw.timestamp,
    isFromMe: Boolean(raw.is_from_me),
    isBotMessage: Boolean(raw.is_bot_message),
  }
}

/**
 * The row dreamlane reads, from a raw window row `[id, timestamp, sender, sender_name, content, is_from_me,
 * is_bot_message, content_blocks?]` of chat `jid`, whose root and name were looked up once per chat.
 */
export function windowRowToMessage(
  jid: string,
  row: readonly unknown[],
  chat: ChatOfRow | undefined,
): MessageRow {
  return {
    id: row[0] as string,
    chatJid: jid,
    rootJid: chat?.root ?? jid,
    chatName: chat ? chat.name : null,
    sender: row[2] as string | null,
    senderName: row[3] as string | null,
    content: textOf(row[4], row[7]),
    timestamp: row[1] as string,
    isFromMe: Boolean(row[5]),
    isBotMessage: Boolean(row[6]),
  }
}
