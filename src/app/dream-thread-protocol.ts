// What the host's thread and the dream thread say to each other (plain data only: it is structured-cloned).
import type { ResolvedConfig } from '../config/schema.js'
import type { DreamEvent } from '../dream/deps.js'
import type { DreamRequest, PostedSummary, RunRecord } from '../dream/types.js'
import type { SentError } from '../threads/thread-errors.js'

/** What the dream thread opens its workspace with. */
export interface DreamThreadData {
  config: ResolvedConfig
  /** For provider selection, as the host resolved it. */
  env: Record<string, string | undefined>
  /** The host logger's level: lines below it are never sent. */
  logLevel: string
  messagesDbWaitMs?: number | undefined
  /** Send every step and tool event (the host listens); else only the one the host acts on: finished. */
  progress: boolean
}

export type ToDreamThread =
  /** Run the queued run `runId`; the host's clock reads `clockOffsetMs` ahead of this machine's. */
  | { type: 'run'; runId: string; request: DreamRequest; clockOffsetMs: number }
  /** The host shuts down: the running dream cancels, as it would in-process. */
  | { type: 'abort' }
  /** The host's onSummary hook for summary `id` has returned. */
  | { type: 'summary-delivered'; id: number }
  /** Close the databases; the thread answers `closed`, then the host ends it. */
  | { type: 'close' }
  /** Open the databases and load a dream's modules now; the thread answers `warmed`. */
  | { type: 'warm' }

export type FromDreamThread =
  | { type: 'event'; event: DreamEvent }
  | { type: 'summary'; id: number; summary: PostedSummary }
  /** One pino line (JSON), for the host's logger. */
  | { type: 'log'; line: string }
  | { type: 'finished'; runId: string; record: RunRecord }
  /** runDream itself threw (it records ordinary failures as runs): the host closes the run. */
  | { type: 'failed'; runId: string; error: SentError }
  | { type: 'closed' }
  | { type: 'warmed' }
