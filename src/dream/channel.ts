// The temporary dream channel: a `dream:` chat in the messages DB holding the turn's messages while it runs.
import type { MessagesDb, NewMessage } from '../db/messages.js'
import type { TranscriptEntry } from '../model/provider.js'
import type { DreamMode } from './types.js'

export interface DreamChannel {
  jid: string
  /** Appends one transcript entry as a channel message (written within CHANNEL_FLUSH_MS, with its neighbours). */
  append(entry: TranscriptEntry, at: Date): void
  /** Writes what is pending, then deletes the channel's rows; returns how many messages were removed. */
  remove(): number
}

/**
 * Appended entries wait this long and are written together: one transaction per tool call cost the main thread
 * ~0.3 ms each (statement, commit), in the same task as the call it records, which a chat turn then waited behind.
 */
export const CHANNEL_FLUSH_MS = 200

export function dreamChannelJid(mode: DreamMode, chatJid: string, at: Date): string {
  return `dream:${mode}:${chatJid}:${at.getTime()}`
}

function describe(entry: TranscriptEntry): { content: string; isBot: boolean } {
  switch (entry.kind) {
    case 'text':
      return { content: entry.text, isBot: entry.role === 'assistant' }
    case 'tool_call':
      return { content: `[tool_call ${entry.name}] ${JSON.stringify(entry.input)}`, isBot: true }
    case 'tool_result':
      return {
        content: `[tool_result ${entry.name} ${entry.ok ? 'ok' : 'error'}] ${entry.content}`,
        isBot: false,
      }
  }
}

/**
 * The channel is a courtesy copy of the transcript (the run record keeps the real one), so a messages DB the
 * host keeps locked costs the channel, not the dream: the first failed write goes to `onError`, later ones are
 * skipped, and a channel that could not be removed is reaped on the next start.
 */
export function openDreamChannel(
  messages: MessagesDb,
  mode: DreamMode,
  chatJid: string,
  at: Date,
  onError: (error: unknown) => void = () => {},
): DreamChannel {
  const jid = dreamChannelJid(mode, chatJid, at)
  let broken = false
  const attempt = <T>(write: () => T, otherwise: T): T => {
    if (broken) return otherwise
    try {
      return write()
    } catch (error) {
      broken = true
      onError(error)
      return otherwise
    }
  }
  attempt(() => messages.upsertChat(jid, `Dream (${mode}) for ${chatJid}`, at.toISOString()), undefined)
  let seq = 0
  let pending: NewMessage[] = []
  let timer: NodeJS.Timeout | null = null
  const flush = (): void => {
    if (timer) clearTimeout(timer)
    timer = null
    const rows = pending
    pending = []
    if (rows.length > 0) attempt(() => messages.insertMessages(rows), 0)
  }
  return {
    jid,
    append(entry, when) {
      const { content, isBot } = describe(entry)
      seq += 1
      pending.push({
        id: `${jid}:${String(seq).padStart(6, '0')}`,
        chatJid: jid,
        sender: isBot ? 'dream' : 'tools',
        senderName: isBot ? 'Dream' : 'Tools',
        content: content.length > 8000 ? `${content.slice(0, 8000)}…` : content,
        timestamp: when.toISOString(),
        isBotMessage: isBot,
      })
      // Unreferenced: a pending flush never keeps the process alive (remove() writes what is left).
      timer ??= setTimeout(flush, CHANNEL_FLUSH_MS).unref()
    },
    remove() {
      flush()
      broken = false
      return attempt(() => messages.deleteChat(jid), 0)
    },
  }
}

/** Deletes every leftover dream channel (from crashed runs); returns their jids. */
export function removeLeftoverChannels(messages: MessagesDb): string[] {
  const jids = messages.listDreamChannels()
  for (const jid of jids) messages.deleteChat(jid)
  return jids
}
