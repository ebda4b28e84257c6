// Wires the real dependencies into a Dreamlane: config, DBs, providers, lanes, the dream service, schedules.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino, type Logger } from 'pino'
import { systemClock, type Clock } from './clock.js'
import { resolveConfig } from './config/resolve.js'
import type { ConfigFile, ResolvedConfig } from './config/schema.js'
import { openMessagesDb, type MessagesDb } from './db/messages.js'
import { openStateDb, type StateDb } from './db/state.js'
import { handleSlashCommand } from './chat/handle-input.js'
import { DreamlaneError } from './errors.js'
import { dryRunDream, type DryRunResult } from './ledger/dry-run.js'
import { applyHeldRun, discardHeldRun, settlePendingStages, type ReviewResult } from './ledger/review.js'
import { LedgerStore } from './ledger/store.js'
import type { FileChange } from './ledger/types.js'
import { undoRun, type UndoOptions, type UndoResult } from './ledger/undo.js'
import type { DreamEvent, DreamDeps } from './dream/deps.js'
import { checkGates, type GateDecision } from './dream/gates.js'
import { describeLock, readLock, staleReason } from './dream/lock.js'
import { recoverWorkspace, type RecoveryReport } from './dream/recover.js'
import { RunStore } from './dream/runs.js'
import { DreamService, type TriggerResult } from './dream/service.js'
import { SettingsStore } from './dream/settings.js'
import type { PostedSummary } from './dream/summary.js'
import type { DreamMode, DreamRequest, RunRecord } from './dream/types.js'
import { createOfflineProvider } from './model/offline/engine.js'
import type { ModelProvider } from './model/provider.js'
import { selectProvider } from './model/select.js'
import { readBacklog, type BacklogEntry } from './notes/backlog.js'
import { memoryCounts, type MemoryCounts } from './recall/status.js'
import { workspacePaths, type WorkspacePaths } from './notes/paths.js'
import { LaneManager } from './queue/lanes.js'
import { AutoDreamScheduler, nextFireTimes, retryDelayMs } from './schedule/autodream.js'
import { prepareBootstrap } from './schedule/bootstrap.js'
import { systemTimers, type Timers } from './schedule/timers.js'
import { dayWindow, localDayOf, localTimeOf } from './time/local-day.js'

export interface DreamlaneOptions {
  workspace?: string
  dataDir?: string
  messagesDb?: string
  /** A fully resolved config; otherwise resolved from the options, `env` and `<data>/config.json`. */
  config?: ResolvedConfig
  /** Extra settings layered over config.json and env. */
  settings?: ConfigFile
  env?: Record<string, string | undefined>
  provider?: ModelProvider
  /** Why this provider (shown by `status`). */
  providerReason?: string
  clock?: Clock
  timers?: Timers
  logger?: Logger
  /** Delivers each finished dream's summary to the host's chat transport. */
  onSummary?: (summary: PostedSummary) => void | Promise<void>
  onEvent?: (event: DreamEvent) => void
  /** Create an empty messages DB when none exists. @default false */
  createMessagesDb?: boolean
}

export interface DreamlaneStatus {
  workspace: string
  provider: string
  model: string | null
  providerReason: string
  activeRun: string | null
  lock: string | null
  latestRun: RunRecord | null
  lastConsolidated: string | null
  backlog: BacklogEntry[]
  autoDream: { enabled: boolean; cron: string; nextRunAt: string | null; nextRunLocal: string | null }
  memory: MemoryCounts
}

export interface Dreamlane {
  readonly config: ResolvedConfig
  readonly paths: WorkspacePaths
  readonly runs: RunStore
  readonly messages: MessagesDb
  readonly state: StateDb
  readonly lanes: LaneManager
  /** Queues a dream (or joins the one queued/running) and returns at once. */
  trigger(request: DreamRequest): TriggerResult
  /** Queues a dream and waits for its finished record. */
  dream(request: DreamRequest): Promise<RunRecord>
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
  /** Run `id`'s change ledger: per file, before/after sha256, line counts and the unified diff. */
  changes(id: string): FileChange[]
  /** Handles chat input that is a slash command; returns the reply, or null when the text is not a command. */
  handleChatInput(chatJid: string, text: string): Promise<string | null>
  status(): Promise<DreamlaneStatus>
  recover(): Promise<RecoveryReport>
  /** First boot: copies missing core memory files and queues one bootstrap dream (once across processes). */
  bootstrap(): Promise<TriggerResult | null>
  /** Starts the nightly AutoDream schedule in this process. */
  startAutoDream(): void
  setAutoDream(enabled: boolean): void
  /** Stops schedules, aborts a running turn (the run ends `cancelled`), waits for it, closes the DBs. */
  shutdown(): Promise<void>
  /** Waits for the running dream, then closes the databases. */
  close(): Promise<void>
}

function readSystemPrompt(paths: WorkspacePaths): string {
  const override = join(paths.workspace, 'skills', 'dream', 'SKILL.md')
  const file = existsSync(override) ? override : join(paths.skills, 'dream', 'SKILL.md')
  return readFileSync(file, 'utf8')
}

export function createDreamlane(options: DreamlaneOptions = {}): Dreamlane {
  const env = options.env ?? process.env
  const config =
    options.config ??
    resolveConfig({
      env,
      flags: {
        ...options.settings,
        ...(options.workspace ? { workspace: options.workspace } : {}),
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        ...(options.messagesDb ? { messagesDb: options.messagesDb } : {}),
      },
    })
  const paths = workspacePaths(config)
  const clock = options.clock ?? systemClock
  const timers = options.timers ?? systemTimers
  const log = options.logger ?? pino({ level: env.DREAMLANE_LOG_LEVEL ?? 'warn' }, pino.destination(2))
  const messages = openMessagesDb(paths.messagesDb, { create: options.createMessagesDb ?? false })
  const state = openStateDb(paths.stateDb)
  const runs = new RunStore(state, clock, config.timezone)
  const lanes = new LaneManager()
  const settings = new SettingsStore(state)
  const fallback = createOfflineProvider({ memoryBudgetBytes: config.memory.indexBudgetBytes })
  // An injected provider (tests, hosts) wins; otherwise config/env decide, and a bad explicit choice is a ConfigError.
  const selected = options.provider
    ? null
    : selectProvider(config, env, {
        clock,
        onRetry: (attempt) => log.warn(attempt, 'model request retry'),
        modelSlot: (call) => lanes.withModelSlot('dream', call),
      })
  const provider =
    options.provider ?? (selected?.name === 'offline' ? fallback : (selected?.provider ?? fallback))
  const providerReason = options.providerReason ?? selected?.reason ?? 'injected by the host'
  const abort = new AbortController()
  const retryTimers = new Set<unknown>()
  let scheduler: AutoDreamScheduler | null = null

  const deps: DreamDeps = {
    config,
    paths,
    clock,
    messages,
    state,
    runs,
    settings,
    provider,
    fallback,
    lanes,
    log,
    systemPrompt: readSystemPrompt(paths),
    onSummary: options.onSummary,
    onEvent: (event) => {
      options.onEvent?.(event)
      if (event.type === 'finished') scheduleAutoRetry(event.run)
    },
    signal: abort.signal,
  }
  const service = new DreamService(deps)
  const trigger = (request: DreamRequest): TriggerResult => service.trigger(request)

  /** Failed or degraded auto runs retry with backoff until the delays are used up. */
  function scheduleAutoRetry(run: RunRecord): void {
    if (run.mode !== 'auto' || (run.status !== 'failed' && run.status !== 'degraded') || abort.signal.aborted)
      return
    const delay = retryDelayMs(run.attempt - 1, config.autoDream.retryDelaysMinutes)
    if (delay === null) {
      log.warn({ runId: run.id, attempt: run.attempt }, 'auto dream retries used up')
      return
    }
    const handle = timers.setTimeout(() => {
      retryTimers.delete(handle)
      if (!abort.signal.aborted) retry(run.id)
    }, delay)
    retryTimers.add(handle)
  }

  function retry(id: string): TriggerResult {
    const original = runs.get(id)
    if (original.kind === 'undo')
      throw new DreamlaneError(
        'RUN_NOT_REVIEWABLE',
        `${id} is an undo, not a dream; there is nothing to retry`,
      )
    return trigger({
      mode: original.mode,
      chatJid: original.chatJid,
      days: original.days,
      endDay: original.lastDay ?? undefined,
      retryOf: original.id,
    })
  }

  function autoChatJid(): string {
    return messages.listChats()[0]?.jid ?? 'auto'
  }

  async function status(): Promise<DreamlaneStatus> {
    const holder = await readLock(paths.lockFile)
    const live = holder && staleReason(holder, { clock, staleAfterMs: config.dream.runTimeoutMs }) === null
    const enabled = settings.autoDreamEnabled(config.autoDream.enabled)
    // Outside `serve` nothing is scheduled in this process; the next fire time is still what the schedule says.
    const next =
      scheduler?.nextRunAt ??
      (enabled ? (nextFireTimes(config.autoDream.cron, config.timezone, clock.now())[0] ?? null) : null)
    return {
      workspace: paths.workspace,
      provider: provider.name,
      model: selected ? selected.model : (config.dream.model ?? provider.model ?? null),
      providerReason,
      activeRun: service.activeRunId,
      lock: live && holder ? describeLock(holder) : null,
      latestRun: runs.latest(),
      lastConsolidated: runs.lastSucceeded()?.finishedAt ?? null,
      backlog: await readBacklog(
        paths,
        dayWindow(clock.now(), config.dream.defaultDays, config.timezone).days,
      ),
      autoDream: {
        enabled,
        cron: config.autoDream.cron,
        nextRunAt: next?.toISOString() ?? null,
        nextRunLocal: next
          ? `${localDayOf(next, config.timezone)} ${localTimeOf(next, config.timezone)} ${config.timezone}`
          : null,
      },
      memory: memoryCounts(state, clock, config),
    }
  }

  const lane: Dreamlane = {
    config,
    paths,
    runs,
    messages,
    state,
    lanes,
    trigger,
    dream: (request) => trigger(request).done,
    retry,
    gate: (mode) => checkGates(mode, deps),
    // A run is marked held a moment before it releases the lock; review actions from this process wait for
    // the dream in flight to finish instead of failing on that lock.
    apply: async (id) => {
      await service.idle()
      return applyHeldRun(deps, id)
    },
    discard: async (id) => {
      await service.idle()
      return discardHeldRun(deps, id)
    },
    undo: async (id, undoOptions) => {
      await service.idle()
      return undoRun(deps, id, undoOptions)
    },
    // The host's own listener only: the rehearsal's finished event must not schedule retries of a scratch run.
    dryRun: (request) => dryRunDream(request, { ...deps, onEvent: options.onEvent }),
    changes: (id) => new LedgerStore(state).list(runs.get(id).id),
    handleChatInput: (chatJid, text) => handleSlashCommand(lane, chatJid, text),
    status,
    async recover() {
      const report = await recoverWorkspace(deps)
      // After lost runs are marked: a run that crashed while being held gets its notes put back.
      await settlePendingStages(deps)
      return report
    },
    async bootstrap() {
      const decision = await prepareBootstrap({
        paths,
        state,
        clock,
        reclaimAfterMs: config.dream.runTimeoutMs,
      })
      if (!decision.claimed) return null
      log.info({ missing: decision.missing }, 'first boot: queueing a bootstrap dream')
      return trigger({ mode: 'bootstrap', chatJid: autoChatJid(), days: config.dream.bootstrapDays })
    },
    startAutoDream() {
      scheduler?.stop()
      scheduler = new AutoDreamScheduler({
        cron: config.autoDream.cron,
        timeZone: config.timezone,
        clock,
        timers,
        onFire: async () => {
          await trigger({ mode: 'auto', chatJid: autoChatJid(), days: config.dream.autoDays }).done
        },
      })
      scheduler.start()
    },
    setAutoDream(enabled) {
      settings.setAutoDreamEnabled(enabled, clock.now())
    },
    async shutdown() {
      scheduler?.stop()
      for (const handle of retryTimers) timers.clearTimeout(handle)
      retryTimers.clear()
      abort.abort()
      await lane.close()
    },
    async close() {
      await service.idle()
      await lanes.onIdle()
      if (messages.db.open) messages.close()
      if (state.open) state.close()
    },
  }
  return lane
}
