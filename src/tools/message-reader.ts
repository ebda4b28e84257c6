// Where the message tools read: on the calling thread, or on a reader thread with its own read-only connection.
// A dream's offline engine reads pages of up to 2,000 messages; read and turned into JSON on the main thread, those
// were what chat turns waited behind (and its seeding's read of the window, which the reader thread also serves). The tools still check every call against the window here, on the calling
// thread, and hand the reader only a query they resolved; the reader returns the same text either way.
import type { PrivacyRules } from '../privacy/rules.js'
import type { MessagesDb } from '../db/messages.js'
import type { GatheredDay, GatherPlan } from '../notes/day-aggregator.js'
import { gatherHere } from '../notes/seed-gather.js'
import { threadService } from '../threads/thread-service.js'
import { threadModule } from '../threads/thread-task.js'
import { readChatsJson, readPageJson } from './message-json.js'
import type { EncodedText } from './encoded-text.js'
import type { MessageQuery } from './message-query.js'

export interface MessageReader {
  /** True when pages are read on a reader thread, false on the calling thread. */
  readonly onThread: boolean
  /**
   * get_messages / search_messages' JSON for a query the tool already checked against the window; from a reader
   * thread as its UTF-8 bytes, which the main thread hands on to an engine's thread without copying them.
   */
  page(query: MessageQuery, notes: readonly string[]): Promise<string | EncodedText>
  /** list_chats' JSON for [start, end). */
  chats(start: Date, end: Date, privacy?: PrivacyRules): Promise<string>
  /** The days a dream's seeding gathers (counts and cues), as seedDailyNotes would on the calling thread. */
  seedDays(plan: GatherPlan): Promise<GatheredDay[]>
  close(): Promise<void>
}

/** A request to the reader thread. */
export type ReaderRequest =
  | { kind: 'page'; query: MessageQuery; notes: readonly string[] }
  | { kind: 'chats'; start: Date; end: Date; privacy?: PrivacyRules }
  | { kind: 'seed'; plan: GatherPlan }

/** Reads on the calling thread, through `messages`' own connection. */
export function readOnThisThread(messages: MessagesDb): MessageReader {
  return {
    onThread: false,
    page: (query, notes) => readPageJson(messages, query, notes),
    chats: (start, end, privacy) => readChatsJson(messages, start, end, privacy),
    seedDays: (plan) => gatherHere(messages, plan),
    close: async () => {},
  }
}

/**
 * A reader thread on `messages`' file when it is in WAL mode, where the thread's reads and this thread's writes
 * (chat turns storing messages) never wait on each other; otherwise the calling thread's reader, so a host's
 * rollback-journal DB is locked exactly as before. The thread starts with the first read.
 */
export function openMessageReader(messages: MessagesDb): MessageReader {
  if (!isWal(messages)) return readOnThisThread(messages)
  const service = threadService(threadModule(import.meta.url, './message-reader-thread'), messages.file)
  return {
    onThread: true,
    page: (query, notes) =>
      service.request<EncodedText>({ kind: 'page', query, notes } satisfies ReaderRequest),
    chats: (start, end, privacy) =>
      service.request<string>({ kind: 'chats', start, end, privacy } satisfies ReaderRequest),
    seedDays: (plan) => service.request<GatheredDay[]>({ kind: 'seed', plan } satisfies ReaderRequest),
    close: () => service.close(),
  }
}

function isWal(messages: MessagesDb): boolean {
  return String(messages.db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal'
}
