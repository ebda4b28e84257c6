// WhatsApp chat export (.txt, or the .zip with media): one chat, multi-line messages, wall-clock times in --tz.
import type { NewMessage } from '../db/messages.js'
import { deriveId, OccurrenceCounter, slugOf } from './ids.js'
import { readLineBatches } from './lines.js'
import type { SourceInput } from './source.js'
import type { DateOrder, ImportSink, ReaderOptions } from './types.js'
import { wallTimeToUtc, type WallTime } from './wall-time.js'
import {
  chatNameOf,
  guessOrder,
  parseBody,
  parseHeader,
  provenOrder,
  wallKey,
  wallTimeOf,
  type WhatsAppHeader,
} from './whatsapp-format.js'

export interface WhatsAppOptions extends ReaderOptions {
  /** File name the chat name comes from when the text file is a generic `_chat.txt` (the zip's name). */
  nameHint?: string
}

interface Pending {
  wall: WallTime
  sender: string
  lines: string[]
}

/** Reads the export into `sink`. Two passes when the date order must be detected; memory: one message. */
export async function readWhatsApp(
  input: SourceInput,
  sink: ImportSink,
  options: WhatsAppOptions,
): Promise<void> {
  const order = options.dateOrder ?? (await detectDateOrder(input))
  const name =
    options.chatName ??
    chatNameOf(input.name) ??
    (options.nameHint ? chatNameOf(options.nameHint) : null) ??
    'WhatsApp chat'
  const jid = `whatsapp:${slugOf(name)}`
  sink.chat({ jid, name })

  const me = options.me?.trim().toLowerCase()
  const senders = new Set<string>()
  let isMeSeen = false
  const occurrences = new OccurrenceCounter()
  let pending: Pending | null = null
  // 'start': nothing read yet; 'ignored': inside a system notice, a deleted or an unreadable message.
  let state: 'start' | 'message' | 'ignored' = 'start'

  const emit = (message: Pending): void => {
    const content = message.lines.join('\n').trimEnd()
    if (content.trim() === '') {
      sink.skip()
      return
    }
    const key = wallKey(message.wall)
    const occurrence = occurrences.next(jid, key, `${message.sender}\u0000${content}`)
    const isFromMe = me !== undefined && message.sender.toLowerCase() === me
    isMeSeen ||= isFromMe
    if (senders.size < 50) senders.add(message.sender)
    const row: NewMessage = {
      id: deriveId('wa', key, [jid, message.sender, content, occurrence]),
      chatJid: jid,
      sender: message.sender,
      senderName: message.sender,
      content,
      timestamp: wallTimeToUtc(message.wall, options.timeZone).toISOString(),
      isFromMe,
      isBotMessage: false,
    }
    sink.message(row)
  }

  const stream = await input.read()
  for await (const batch of readLineBatches(stream, { onBytes: (bytes) => sink.advance(bytes) })) {
    for (const line of batch) {
      const header = line.isTruncated ? null : parseHeader(line.text)
      if (!header) {
        if (state === 'message' && pending) pending.lines.push(line.text)
        else if (state === 'start' && line.text.trim() !== '') {
          sink.problem({ line: line.number, reason: 'not a WhatsApp message line (no date/time header)' })
        }
        continue
      }
      if (pending) emit(pending)
      pending = null
      const wall = wallTimeOf(header, order)
      if (!wall) {
        sink.problem({ line: line.number, reason: `not a valid ${order.toUpperCase()} date/time` })
        state = 'ignored'
        continue
      }
      const body = parseBody(header.rest)
      if (body.kind !== 'message') {
        sink.skip()
        state = 'ignored'
        continue
      }
      pending = { wall, sender: body.sender, lines: [body.text] }
      state = 'message'
    }
  }
  if (pending) emit(pending)
  if (me !== undefined && !isMeSeen && senders.size > 0) {
    sink.warn(`--me "${options.me}" matched no sender (senders: ${[...senders].slice(0, 10).join(', ')})`)
  }
}

/**
 * US exports write month/day, most others day/month; the first date with a field above 12 decides.
 * A file where no date does falls back to the separator and clock style of its first header.
 */
export async function detectDateOrder(input: SourceInput): Promise<DateOrder> {
  let first: WhatsAppHeader | null = null
  const stream = await input.read()
  for await (const batch of readLineBatches(stream)) {
    for (const line of batch) {
      const header = parseHeader(line.text)
      if (!header) continue
      first ??= header
      const order = provenOrder(header)
      if (order) {
        stream.destroy()
        return order
      }
    }
  }
  return first ? guessOrder(first) : 'dmy'
}
