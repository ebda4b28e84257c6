// JSONL import: one message per line `{chat, id?, sender, role, content, timestamp}`; bad lines reported, the rest kept.
import { DREAM_CHANNEL_PREFIX, type NewMessage } from '../db/messages.js'
import { deriveId, OccurrenceCounter, slugOf } from './ids.js'
import { readLineBatches } from './lines.js'
import type { SourceInput } from './source.js'
import type { ImportSink, ReaderOptions } from './types.js'
import { parseTimestamp } from './wall-time.js'

const SKIPPED_ROLES = new Set(['system', 'tool', 'function'])

/** A record that passed validation, before ids are settled. */
interface JsonlRecord {
  chat: string
  chatName: string | null
  id: string | null
  sender: string
  senderName: string | null
  role: 'user' | 'assistant'
  content: string
  rawTimestamp: string
  timestamp: string
  isFromMe: boolean
}

/** Streams `input` line by line into `sink`. Memory: one line plus the sink's batch. */
export async function readJsonl(input: SourceInput, sink: ImportSink, options: ReaderOptions): Promise<void> {
  const occurrences = new OccurrenceCounter()
  const seenChats = new Set<string>()
  const stream = await input.read()
  for await (const batch of readLineBatches(stream, { onBytes: (bytes) => sink.advance(bytes) })) {
    for (const line of batch) {
      if (line.text.trim() === '') continue
      if (line.isTruncated) {
        sink.problem({ line: line.number, reason: 'line too long (cut at 16 MiB)' })
        continue
      }
      const parsed = parseLine(line.text, options)
      if (parsed === 'skip') {
        sink.skip()
        continue
      }
      if (typeof parsed === 'string') {
        sink.problem({ line: line.number, reason: parsed })
        continue
      }
      if (!seenChats.has(parsed.chat)) {
        seenChats.add(parsed.chat)
        sink.chat({ jid: parsed.chat, name: parsed.chatName })
      }
      sink.message(toMessage(parsed, occurrences))
    }
  }
}

function toMessage(record: JsonlRecord, occurrences: OccurrenceCounter): NewMessage {
  let id = record.id
  if (id === null) {
    const key = `${record.sender}\u0000${record.role}\u0000${record.content}`
    const occurrence = occurrences.next(record.chat, record.rawTimestamp, key)
    id = deriveId('jl', record.rawTimestamp, [record.chat, key, occurrence])
  }
  return {
    id,
    chatJid: record.chat,
    sender: record.sender,
    senderName: record.senderName,
    content: record.content,
    timestamp: record.timestamp,
    isFromMe: record.isFromMe,
    isBotMessage: record.role === 'assistant',
  }
}

const optionalString = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null

/** The record, 'skip' for a deliberate omission, or the reason the line is unusable. */
function parseLine(text: string, options: ReaderOptions): JsonlRecord | 'skip' | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'expected a JSON object'
  const record = value as Record<string, unknown>

  const fallbackChat = options.chatName ? `import:${slugOf(options.chatName)}` : null
  const chat = optionalString(record.chat) ?? fallbackChat
  if (chat === null) return 'chat: expected a non-empty string (or pass --chat-name)'
  if (chat.startsWith(DREAM_CHANNEL_PREFIX))
    return `chat: "${DREAM_CHANNEL_PREFIX}" chats are dreamlane's own channels`
  const role = record.role
  if (typeof role === 'string' && SKIPPED_ROLES.has(role)) return 'skip'
  if (role !== 'user' && role !== 'assistant') return 'role: expected "user" or "assistant"'
  if (typeof record.content !== 'string') return 'content: expected a string'
  if (record.content.trim() === '') return 'skip'
  const timestamp = parseTimestamp(record.timestamp, options.timeZone)
  if (!timestamp) return 'timestamp: expected ISO 8601 (with or without offset) or epoch seconds/milliseconds'
  const rawId = record.id
  if (rawId !== undefined && rawId !== null && typeof rawId !== 'string' && typeof rawId !== 'number') {
    return 'id: expected a string or a number'
  }
  if (record.sender !== undefined && typeof record.sender !== 'string') return 'sender: expected a string'

  const sender = optionalString(record.sender) ?? role
  return {
    chat,
    chatName:
      optionalString(record.chat_name) ?? (record.chat === undefined ? (options.chatName ?? null) : null),
    id: rawId === undefined || rawId === null || rawId === '' ? null : String(rawId),
    sender,
    senderName: optionalString(record.sender_name) ?? sender,
    role,
    content: record.content,
    rawTimestamp: String(record.timestamp),
    timestamp: timestamp.toISOString(),
    isFromMe: record.is_from_me === true,
  }
}
