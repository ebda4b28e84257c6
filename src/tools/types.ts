// The contract between a model turn and the file/message tools: definitions, calls, results, the record.
import type { PrivacyRules } from '../privacy/rules.js'
import type { z } from 'zod'
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { MessagesDb } from '../db/messages.js'
import type { StateDb } from '../db/state.js'
import type { WorkspacePaths } from '../notes/paths.js'
import type { DayWindow } from '../time/local-day.js'
import type { EncodedText } from './encoded-text.js'
import type { MessageReader } from './message-reader.js'
import type { FlatPageMessage } from './message-json.js'
import type { DirSyncs } from '../notes/dir-syncs.js'
import type { NoteBudget } from './note-budget.js'
import type { SecretGuard } from './secret-guard.js'

/** What a tool returns to the model. A refused call is `ok: false` with a specific, actionable message. */
export interface ToolResult {
  ok: boolean
  content: string
  /** Stable error code when refused, e.g. PATH_OUT_OF_SCOPE, TOOL_INPUT_INVALID. */
  code?: string
}

/** Everything a tool may touch; nothing else is reachable from a tool. */
export interface ToolContext {
  paths: WorkspacePaths
  config: ResolvedConfig
  /** The dream's window: bounds daily-note writes and message reads. */
  window: DayWindow
  messages: MessagesDb
  /**
   * Where the message tools read their pages, once they checked the call against the window (a dream's reader
   * thread). @default `messages` on the calling thread
   */
  messageReader?: MessageReader
  state: StateDb
  clock: Clock
  /** True for dream turns: their searches never become recall events. */
  isDream: boolean
  /**
   * Messages one get_messages / search_messages page may hold, for an engine with no context window to fill
   * (the offline engine). Never above MESSAGE_PAGE_CEILING. @default config.tools.maxResults
   */
  messagePageMax?: number
  /** The turn's secrets: what writes withhold and records redact. createToolSet makes one per set. */
  secrets?: SecretGuard
  /** A dream's notes budget: what its writes added, reported in each write result. */
  noteBudget?: NoteBudget
  /** Told the absolute path of every file a tool wrote; createToolSet sets it to track changedFiles(). */
  onWrite?: (absPath: string) => void
  /**
   * A dream's batch of folder fsyncs: a written note's folder is synced once when the turn ends (its owner
   * flushes it) rather than after every write. Without it (interactive tools) each write is durable when it returns.
   */
  dirSyncs?: DirSyncs
  /**
   * Told the hits search_workspace served to a non-dream turn, so the host can record recall events.
   * Never called when `isDream` is true.
   */
  onRecall?: (query: string, hits: readonly RecalledHit[]) => void
  /**
   * What a dream must not see or write: message pages and list_chats leave excluded chats, private stretches and
   * forgotten sentences out; write_file and edit_file withhold passages that mention a tombstone. @default none
   */
  privacy?: PrivacyRules
  /** What draft_day drafts a day with (the offline engine's extract); without one draft_day is not offered. */
  dayDrafter?: DayDrafter
}

/** Drafts one day's summary from its messages, words weighed over the window's (read once, when first needed). */
export interface DayDrafter {
  draft(day: readonly FlatPageMessage[], readWindow: () => Promise<FlatPageMessage[]>): Promise<string>
}

/** One search_workspace hit as served to the model. */
export interface RecalledHit {
  path: string
  line: number
  snippet: string
  score: number
}

export interface ToolDefinition<Input = unknown> {
  name: string
  description: string
  /** Validates model input; a failure becomes a TOOL_INPUT_INVALID result, never a crash. */
  input: z.ZodType<Input>
  /** The text the model gets; a page read on another thread may come as its UTF-8 bytes (see encoded-text.ts). */
  run(input: Input, context: ToolContext, signal?: AbortSignal): Promise<string | EncodedText>
}

/** One recorded call, kept in the run record. */
export interface ToolCallRecord {
  name: string
  input: unknown
  ok: boolean
  code?: string
  /** First part of the result, for the audit trail. */
  preview: string
  startedAt: string
  durationMs: number
}

/** JSON-schema description of a tool for providers. */
export interface ToolSpec {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

export interface ToolSet {
  specs(): ToolSpec[]
  /** Validates, runs and records one call. Never throws for tool-level problems. */
  call(name: string, input: unknown, signal?: AbortSignal): Promise<ToolResult>
  /** Every call so far, in order. */
  calls(): readonly ToolCallRecord[]
  /** Absolute paths of files written through this set (for FTS refresh and the change ledger). */
  changedFiles(): readonly string[]
  /** `value` (a transcript) with every secret this turn saw or can detect withheld, for the run record. */
  redactRecord?<T>(value: T): T
}
