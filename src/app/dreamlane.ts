// The Dreamlane a host holds: one workspace's use cases (app/) bound to its opened databases and queue.
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { ConfigFile, DreamingMode, ResolvedConfig } from '../config/schema.js'
import type { MessagesDb } from '../db/messages.js'
import type { StateDb } from '../db/state.js'
import type { RunFilter, RunStore } from '../dream/runs.js'
import type { DreamEvent } from '../dream/deps.js'
import type { DreamMode, DreamRequest, PostedSummary, RunRecord } from '../dream/types.js'
import type { FileChange } from '../ledger/types.js'
import type { ModelProvider } from '../model/provider.js'
import type { WorkspacePaths } from '../notes/paths.js'
import type { LaneManager } from '../queue/lanes.js'
import type { Timers } from '../schedule/timers.js'
import type { GatedTrigger, GatedTriggerOutcome, GateDecision, TriggerResult } from './dream.js'
import type { PromoteOptions, PromoteResult } from './promote.js'
import type { RecoveryReport } from './recover.js'
import type { RestoreResult } from './restore.js'
import type { DryRunResult, ReviewResult, UndoOptions, UndoResult } from './review.js'
import type { DreamlaneStatus } from './status.js'
import type { ChatPrivacy, ExcludedChats } from './chat-privacy.js'
import type { ForgetOptions, ForgetPreview, ForgetResult } from './forget.js'
import type { ForgetUndoResult } from './forget-undo.js'
import type { DbWait } from '../db/busy.js'
import type { ModelSlot, RetryAttempt } from '../model/retry.js'

export interface DreamlaneOptions {
  /** The assistant's workspace (notes/ lives here). @default `DREAMLANE_WORKSPACE`, else the current directory */
  workspace?: string
  /** dreamlane's own files: state.db, backups/, config.json. @default `<workspace>/.dreamlane` */
  dataDir?: string
  /** The messages DB to read. @default `<dataDir>/messages.db` */
  messagesDb?: string
  /** A fully resolved config; when given, the three options above, `settings` and `env` are not read. @default resolved */
  config?: ResolvedConfig
  /** Settings layered over config.json and env (same keys as config.json). @default {} */
  settings?: ConfigFile
  /** Environment for config and provider selection. @default process.env */
  env?: Record<string, string | undefined>
  /** The model provider for dreams. @default chosen from config and env (no key: the offline engine) */
  provider?: ModelProvider
  /** Why this provider (shown by `status`). @default 'injected by the host' when `provider` is given */
  providerReason?: string
  /** @default the system clock */
  clock?: Clock
  /** Timers for schedules and retries. @default real, unref'd timers */
  timers?: Timers
  /** @default pino on stderr at `DREAMLANE_LOG_LEVEL` (else warn) */
  logger?: Logger
  /** Delivers each finished dream's summary to the host's chat transport. @default none */
  onSummary?: (summary: PostedSummary) => void | Promise<void>
  /** Told every dream's progress: queued, each step, each tool call, finished. @default none */
  onEvent?: (event: DreamEvent) => void
  /** Create an empty messages DB when none exists. @default false */
  createMessagesDb?: boolean
  /** How long to wait on a messages DB another process keeps locked, and where progress goes meanwhile. @default 5 s, no progress */
  messagesDbWait?: DbWait
  /** Wraps every model request inside the process's own cap: a fleet's shared rate limit. @default none */
  modelGate?: ModelSlot
  /** Told of every model request retry, e.g. a 429 with its retry-after. @default logged at warn */
  onModelRetry?: (attempt: RetryAttempt) => void
  /**
   * How long the offline engine's thread is kept after a dream for the next one; `Infinity` keeps it for the
   * process's life (a fleet worker). A new thread loads and compiles the engine again. @default 30000
   */
  engineIdleMs?: number
  /**
   * Read a dream's message pages and seeding window on a reader thread, so chat turns in this process never wait
   * behind them; false reads them on the calling thread (a fleet worker: no chat, and no thread to start per
   * workspace). @default true (a rollback-journal messages DB is always read on the calling thread)
   */
  messagesOnThread?: boolean
  /**
   * Run each offline-engine dream on its own thread: backup, seeding, the tools, the FTS refresh and the run record
   * all leave this event loop, so chat turns here never wait behind a dream. A provider, model gate or API-model
   * dream the host brings stays on this thread (an API dream mostly waits on the network, and shares this process's
   * model-call cap with chat). Hooks and logs still arrive here. On Linux each such dream first lowers the process's
   * other threads to nice 5 (V8's GC helpers, libuv's pool, any workers of the host's): they do the dream's
   * collections and file calls. @default false (`serve`, `chat` and `mcp` turn it on)
   */
  dreamThread?: boolean
}

/** One workspace's operations, as a host embeds them (the library surface). */
export interface Dreamlane {
  readonly config: ResolvedConfig
  readonly paths: WorkspacePaths
  /** Run records, newest first. */
  listRuns(filter?: RunFilter): RunRecord[]
  /** Run `id` (RUN_NOT_FOUND when there is none). */
  getRun(id: string): RunRecord
  /** Queues a dream (or joins the one queued/running) and returns at once. */
  trigger(request: DreamRequest): TriggerResult
  /** Asks the gate first: a refused trigger writes nothing; a dream in flight is joined. */
  triggerThroughGate(input: GatedTrigger): Promise<GatedTriggerOutcome>
  /** Queues a dream and waits for its finished record. */
  dream(request: DreamRequest): Promise<RunRecord>
  /**
   * Loads what a dream needs now, so the first dream doesn't do that beside chat (a server calls it as it starts):
   * with `dreamThread`, starts that thread, which opens its databases and loads the lifecycle and the engine;
   * otherwise loads the lifecycle's modules on this thread. Settles when done.
   */
  warmDreams(): Promise<void>
  /** Re-runs run `id` with its own mode, chat and window. */
  retry(id: string): TriggerResult
  /** What the gate cascade says right now for `mode`. */
  gate(mode: DreamMode): Promise<GateDecision>
  /** Writes held run `id` (default: the newest held run) if its files are still as the dream found them. */
  apply(id?: string): Promise<ReviewResult>
  /** Drops held run `id` (default: the newest held run); the notes stay as they are. */
  discard(id?: string): Promise<ReviewResult>
  /** Restores what kept dream `id` (default: the newest) changed, unless edited since (`force`: anyway, after a backup). */
  undo(id?: string, options?: UndoOptions): Promise<UndoResult>
  /** Runs `request` on a scratch copy of the notes and returns the diff it would make; touches nothing. */
  dryRun(request: Omit<DreamRequest, 'dryRun'>): Promise<DryRunResult>
  /** Restores backup `id` under the workspace lock (LOCK_HELD while a dream runs), after a safety backup. */
  restore(id: string): Promise<RestoreResult>
  /** Scores recalled chunks; with `apply`, appends the winners to MEMORY.md under the lock. */
  promote(options?: PromoteOptions): Promise<PromoteResult>
  /** Run `id`'s change ledger: per file, before/after sha256, line counts and the unified diff. */
  changes(id: string): FileChange[]
  /** What forgetting `what` (words, a name) would remove from the notes, and which backups hold it; touches nothing. */
  previewForget(what: string): Promise<ForgetPreview>
  /** Forgets `what`: removes it from the notes and the index (backup first), and later dreams skip it. */
  forget(what: string, options?: ForgetOptions): Promise<ForgetResult>
  /** Puts back forget `id` (default: the newest), until the next dream. */
  undoForget(id?: string): Promise<ForgetUndoResult>
  /** Starts (`on`) or ends a private stretch of `chatJid` now; false when it already was (or was not) private. */
  setPrivate(chatJid: string, on: boolean): boolean
  /** Whether `chatJid` is kept out of memory: whole (`memory.excludeChats`), or since `/private on`. */
  chatPrivacy(chatJid: string): ChatPrivacy
  /** The chats kept out of memory: `memory.excludeChats` and every private stretch. */
  excludedChats(): ExcludedChats
  /** Handles chat input that is a slash command; returns the reply, or null when the text is not a command. */
  handleChatInput(chatJid: string, text: string): Promise<string | null>
  status(): Promise<DreamlaneStatus>
  recover(): Promise<RecoveryReport>
  /** First boot: copies missing core memory files and queues one bootstrap dream (once across processes). */
  bootstrap(): Promise<TriggerResult | null>
  /** Starts the nightly AutoDream schedule in this process. */
  startAutoDream(): void
  setAutoDream(enabled: boolean): void
  /** The promotion sweeps' mode: the preset deep sweeps promote with, or off. Kept across restarts. */
  setDreamingMode(mode: DreamingMode): void
  /** Stops schedules, aborts a running turn (the run ends `cancelled`), waits for it, closes the DBs. */
  shutdown(): Promise<void>
  /** Waits for the running dream, then closes the databases. */
  close(): Promise<void>
}

/**
 * What hosts inside this package (the server, `dreamlane chat`, tests) reach besides the operations: the opened
 * stores and the lanes the assistant shares with dreams. Not part of the library surface.
 */
export interface DreamlaneInternals extends Dreamlane {
  readonly runs: RunStore
  readonly messages: MessagesDb
  readonly state: StateDb
  readonly lanes: LaneManager
}
