// Everything a dream touches, injected: clock, paths, DBs, providers, lanes, hooks.
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { MessagesDb } from '../db/messages.js'
import type { StateDb } from '../db/state.js'
import type { ModelProvider } from '../model/provider.js'
import type { WorkspacePaths } from '../notes/paths.js'
import type { MessageReader } from '../tools/message-reader.js'
import type { LaneManager } from '../queue/lanes.js'
import type { RunStore } from './runs.js'
import type { SettingsStore } from './settings.js'
import type { DreamRequest, PostedSummary, RunRecord, StepName } from './types.js'

/** Progress of a running dream, for CLI output, logs and server-sent events. */
export type DreamEvent =
  | { type: 'queued'; run: RunRecord }
  | {
      type: 'step'
      runId: string
      step: StepName
      phase: 'start' | 'end'
      ok?: boolean
      detail?: string
      durationMs?: number
    }
  | { type: 'tool'; runId: string; name: string; ok: boolean }
  | { type: 'finished'; run: RunRecord }

export interface DreamDeps {
  config: ResolvedConfig
  paths: WorkspacePaths
  clock: Clock
  messages: MessagesDb
  /** Where the model turn's message tools read (a reader thread). @default `messages`, on the main thread */
  messageReader?: MessageReader
  state: StateDb
  runs: RunStore
  settings: SettingsStore
  /** The provider for the model turn. */
  provider: ModelProvider
  /** The deterministic engine that runs when the provider fails or does not do the work. */
  fallback: ModelProvider
  lanes: LaneManager
  log: Logger
  /** The dream prompt (skills/dream/SKILL.md). */
  systemPrompt: string
  onSummary?: (summary: PostedSummary) => void | Promise<void>
  onEvent?: (event: DreamEvent) => void
  /** Aborts the running turn (shutdown, lock loss). */
  signal?: AbortSignal
  /** Runs a queued run somewhere else (the host's dream thread) and settles as runDream would. @default this thread */
  runElsewhere?: (runId: string, request: DreamRequest) => Promise<RunRecord>
}
