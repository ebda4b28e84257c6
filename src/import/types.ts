// Shared shapes of an import: formats, the staged chat/message rows every reader emits, counts and problems.
import type { NewBranch, NewMessage } from '../db/messages.js'

export const IMPORT_FORMATS = ['piclaw', 'chatgpt', 'whatsapp', 'jsonl'] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

/** How a WhatsApp export writes its dates: day/month/year, month/day/year or year/month/day. */
export type DateOrder = 'dmy' | 'mdy' | 'ymd'

/** A chat a reader found; a branch chat also names its session-tree root. */
export interface ImportedChat {
  jid: string
  name: string | null
  branch?: Omit<NewBranch, 'chatJid'>
}

/** One input the user has to hear about: an unreadable line, a bad record, a chat that failed. */
export interface ImportProblem {
  /** 1-based line number in a line-based source (JSONL, WhatsApp). */
  line?: number
  /** The record otherwise: `conversation 3 "Trip ideas"`, a chat jid. */
  item?: string
  reason: string
  /** Records this problem stands for when it summarises several. @default 1 */
  count?: number
}

/** Where readers send what they find. Rows are staged, not written, until every chat is complete. */
export interface ImportSink {
  chat(chat: ImportedChat): void
  message(message: NewMessage): void
  /** A record deliberately left out (system line, tool node, deleted message). */
  skip(): void
  /** A record that could not be read; the rest of the source is still imported. */
  problem(problem: ImportProblem): void
  /** Something the user should know that is not bad data (e.g. --me matched nobody). */
  warn(message: string): void
  /** Source bytes consumed so far (for the progress bar). */
  advance(bytes: number): void
}

/** Options every reader may use. */
export interface ReaderOptions {
  /** IANA zone for zone-less times (WhatsApp, JSONL without an offset). */
  timeZone: string
  /** Chat name for single-chat sources (WhatsApp) or the default chat of JSONL lines without one. */
  chatName?: string
  /** The exporting user's name (WhatsApp sender, ChatGPT user): their messages get is_from_me. */
  me?: string
  /** WhatsApp date order; detected from the file when absent. */
  dateOrder?: DateOrder
}

/** The final tally printed by `dreamlane import`. */
export interface ImportCounts {
  /** Chats (including branch chats) that had rows to import. */
  chats: number
  /** Messages newly written (or, with --dry-run, that would be). */
  messages: number
  /** Records left out on purpose (system lines, tool nodes, deleted messages). */
  skipped: number
  /** Messages already in the DB, or repeated within the source. */
  duplicates: number
  /** Lines or records that could not be read. */
  invalid: number
}

export type ImportPhase = 'read' | 'write'

/** A progress tick: bytes read while parsing, then chats written. */
export interface ImportProgress {
  phase: ImportPhase
  /** What done/total count: source bytes or rows while reading, chats while writing. */
  unit: 'bytes' | 'rows' | 'chats'
  done: number
  total: number
  /** Messages staged so far. */
  messages: number
}
