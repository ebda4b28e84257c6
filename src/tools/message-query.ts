// Read-only paging over the messages window: filters, keyset cursors and the JSON rows the model sees.
import type { PrivacyRules } from '../privacy/rules.js'
import { ToolRefusal } from '../errors.js'
import { DREAM_CHANNEL_PREFIX, type MessageRow, type MessagesDb } from '../db/messages.js'
import { TimeSlicer } from '../time/slice.js'

/** Characters of one message's content shown to the model; longer content is cut with a note. */
export const MESSAGE_MAX_CHARS = 2000

/** Position after the last message of a page, in the window's order (timestamp, chat, id). */
export interface CursorKey {
  ts: string
  chat: string
  id: string
}

/**
 * A page's `next`: where it stopped, and the end and chat the page was read with, so the cursor alone continues
 * the same day, range or chat (a model that passes only the cursor must not run on into the next days).
 */
export interface PageCursor extends CursorKey {
  end?: string
  chatFilter?: string
}

export interface MessageQuery {
  start: Date
  end: Date
  /** A chat jid, or the root jid of a session tree (then every branch matches). */
  chat?: string
  /** Lower-case terms that must all occur in the content. */
  terms?: string[]
  limit: number
  after?: CursorKey
  /** Excluded chats, private stretches and forgotten sentences, left out of the page. @default none */
  privacy?: PrivacyRules
}

export interface MessagePage {
  messages: MessageRow[]
  next: PageCursor | null
}

/**
 * One page of the window, oldest first; `next` is set only when more messages match. A long read (a bulk page,
 * a search over a year) yields to the event loop every few milliseconds: the window read holds no statement
 * open between its per-chat pages, so a chat turn may use the connection meanwhile.
 */
export async function queryMessages(db: MessagesDb, query: MessageQuery): Promise<MessagePage> {
  if (query.start >= query.end) return { messages: [], next: null }
  // Resume a little before the cursor: stored timestamps may be written in a different ISO form.
  const resumeAt = query.after ? new Date(Date.parse(query.after.ts) - 1000) : query.start
  const from = resumeAt > query.start ? resumeAt : query.start
  const found: MessageRow[] = []
  const slicer = new TimeSlicer()
  // The page and the row that says whether more follow.
  const options = { expectRows: query.limit + 1, ...(query.privacy ? { privacy: query.privacy } : {}) }
  for (const row of db.iterateWindow(from, query.end, options)) {
    if (slicer.isDue()) await slicer.yield()
    if (query.after && compareKey(keyOf(row), query.after) <= 0) continue
    if (!isVisible(row) || !matchesChat(row, query.chat) || !matchesTerms(row, query.terms)) continue
    found.push(row)
    if (found.length > query.limit) break
  }
  const messages = found.slice(0, query.limit)
  const last = messages.at(-1)
  if (!(found.length > query.limit && last)) return { messages, next: null }
  const scope = {
    end: query.end.toISOString(),
    ...(query.chat === undefined ? {} : { chatFilter: query.chat }),
  }
  return { messages, next: { ...keyOf(last), ...scope } }
}

/** Dream channels, and branches hanging off one, never reach the model. */
export function isVisible(row: Pick<MessageRow, 'chatJid' | 'rootJid'>): boolean {
  return !row.chatJid.startsWith(DREAM_CHANNEL_PREFIX) && !row.rootJid.startsWith(DREAM_CHANNEL_PREFIX)
}

function matchesChat(row: MessageRow, chat: string | undefined): boolean {
  return chat === undefined || row.chatJid === chat || row.rootJid === chat
}

function matchesTerms(row: MessageRow, terms: string[] | undefined): boolean {
  if (!terms || terms.length === 0) return true
  const content = row.content.toLowerCase()
  return terms.every((term) => content.includes(term))
}

function keyOf(row: MessageRow): CursorKey {
  return { ts: row.timestamp, chat: row.chatJid, id: row.id }
}

// SQLite orders TEXT by its UTF-8 bytes; comparing bytes here keeps cursors exact for any id.
function compareKey(a: CursorKey, b: CursorKey): number {
  for (const field of ['ts', 'chat', 'id'] as const) {
    const order = Buffer.compare(Buffer.from(a[field]), Buffer.from(b[field]))
    if (order !== 0) return order
  }
  return 0
}

export function encodeCursor(key: PageCursor): string {
  const scope = key.end === undefined ? [] : [key.end, key.chatFilter ?? '']
  return Buffer.from(JSON.stringify([key.ts, key.chat, key.id, ...scope])).toString('base64url')
}

/** A cursor `encodeCursor` made; one from before cursors kept their scope has three parts and no end. */
export function decodeCursor(cursor: string): PageCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    const isParts =
      Array.isArray(parsed) &&
      (parsed.length === 3 || parsed.length === 5) &&
      parsed.every((part) => typeof part === 'string')
    if (isParts) {
      const [ts, chat, id, end, chatFilter] = parsed as string[]
      const isScoped = end === undefined || !Number.isNaN(Date.parse(end))
      if (!Number.isNaN(Date.parse(ts as string)) && isScoped) {
        return {
          ts: ts as string,
          chat: chat as string,
          id: id as string,
          ...(end === undefined ? {} : { end }),
          ...(chatFilter ? { chatFilter } : {}),
        }
      }
    }
  } catch {
    // Falls through to the refusal below: a cursor the model made up.
  }
  throw new ToolRefusal(
    'TOOL_INPUT_INVALID',
    'cursor is not one returned by this tool; pass "next" unchanged',
  )
}

/**
 * NUL bytes become U+FFFD: a note may never hold one (write_file refuses it), so a model quoting a message
 * that carried one could otherwise never write that day's summary.
 */
export function sanitizeMessageText(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text
}

/** One message as a page shows it; its chat is given once, by the run of messages it is in (see message-json.ts). */
export interface PageMessageJson {
  id: string
  ts: string
  /** Who sent it, by name (the row's sender_name, else its sender id). */
  sender: string
  /** Sent from the exporting account by a person: the user whose memory this is. */
  from_me?: true
  /** Stored as an assistant's (bot) message. */
  bot?: true
  content: string
}

/** The JSON row the model sees: message content is data inside a string, capped in length, NUL-free. */
export function toMessageJson(row: MessageRow): PageMessageJson {
  const text = sanitizeMessageText(row.content)
  const length = text.length
  const content =
    length > MESSAGE_MAX_CHARS
      ? `${text.slice(0, MESSAGE_MAX_CHARS)}… [truncated: ${MESSAGE_MAX_CHARS} of ${length} chars]`
      : text
  return {
    id: row.id,
    ts: row.timestamp,
    sender: sanitizeMessageText(row.senderName ?? row.sender ?? ''),
    // Only where a person, not the assistant, sent it from the exporting account: the one whose memory this is,
    // among the several people of a group chat.
    ...(row.isFromMe && !row.isBotMessage ? { from_me: true as const } : {}),
    ...(row.isBotMessage ? { bot: true as const } : {}),
    content,
  }
}
