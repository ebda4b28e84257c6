// Wires the real dependencies into a Dreamlane: config, DBs, providers, lanes, the dream service.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino, type Logger } from 'pino'
import { systemClock, type Clock } from './clock.js'
import { resolveConfig } from './config/resolve.js'
import type { ConfigFile, ResolvedConfig } from './config/schema.js'
import { openMessagesDb, type MessagesDb } from './db/messages.js'
import { openStateDb, type StateDb } from './db/state.js'
import { DREAM_USAGE, parseDreamCommand, queuedReply } from './chat/dream-command.js'
import type { DreamEvent, DreamDeps } from './dream/deps.js'
import { recoverWorkspace, type RecoveryReport } from './dream/recover.js'
import { RunStore } from './dream/runs.js'
import { SettingsStore } from './dream/settings.js'
import { DreamService, type TriggerResult } from './dream/service.js'
import type { PostedSummary } from './dream/summary.js'
import type { DreamRequest, RunRecord } from './dream/types.js'
import { readLock, staleReason, describeLock } from './dream/lock.js'
import { createOfflineProvider } from './model/offline/engine.js'
import type { ModelProvider } from './model/provider.js'
import { readBacklog, type BacklogEntry } from './notes/backlog.js'
import { workspacePaths, type WorkspacePaths } from './notes/paths.js'
import { LaneManager } from './queue/lanes.js'

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
  clock?: Clock
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
  activeRun: string | null
  lock: string | null
  latestRun: RunRecord | null
  lastConsolidated: string | null
  backlog: BacklogEntry[]
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
  /** Handles chat input that is a slash command; returns the reply, or null when the text is not a command. */
  handleChatInput(chatJid: string, text: string): Promise<string | null>
  status(): Promise<DreamlaneStatus>
  recover(): Promise<RecoveryReport>
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
  const log = options.logger ?? pino({ level: env.DREAMLANE_LOG_LEVEL ?? 'warn' }, pino.destination(2))
  const messages = openMessagesDb(paths.messagesDb, { create: options.createMessagesDb ?? false })
  const state = openStateDb(paths.stateDb)
  const runs = new RunStore(state, clock, config.timezone)
  const settings = new SettingsStore(state)
  const lanes = new LaneManager()
  const fallback = createOfflineProvider({ memoryBudgetBytes: config.memory.indexBudgetBytes })
  const provider = options.provider ?? fallback
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
    onEvent: options.onEvent,
  }
  const service = new DreamService(deps)

  const trigger = (request: DreamRequest): TriggerResult => service.trigger(request)

  async function status(): Promise<DreamlaneStatus> {
    const holder = await readLock(paths.lockFile)
    const live = holder && staleReason(holder, { clock, staleAfterMs: config.dream.runTimeoutMs }) === null
    return {
      workspace: paths.workspace,
      provider: provider.name,
      model: config.dream.model ?? provider.model ?? null,
      activeRun: service.activeRunId,
      lock: live && holder ? describeLock(holder) : null,
      latestRun: runs.latest(),
      lastConsolidated: runs.lastSucceeded()?.finishedAt ?? null,
      backlog: await readBacklog(paths),
    }
  }

  async function handleChatInput(chatJid: string, text: string): Promise<string | null> {
    const command = parseDreamCommand(text, config.dream)
    if (!command) return null
    if (command.kind === 'usage') return DREAM_USAGE
    if (command.kind === 'status') return describeStatus(await status())
    const result = trigger({ mode: 'manual', chatJid, days: command.days })
    if (result.coalesced) return `A dream is already ${result.run.status}; this request joins it (${result.run.id}).`
    return queuedReply(command.days, command.clamped, config.dream.maxDays)
  }

  return {
    config,
    paths,
    runs,
    messages,
    state,
    lanes,
    trigger,
    dream: (request) => trigger(request).done,
    handleChatInput,
    status,
    recover: () => recoverWorkspace(deps),
    async close() {
      await service.idle()
      await lanes.onIdle()
      messages.close()
      state.close()
    },
  }
}

/** The `/dream status` reply. */
export function describeStatus(status: DreamlaneStatus): string {
  const latest = status.latestRun
  const lines = [
    latest
      ? `Latest dream: ${latest.id} — ${latest.status}${latest.reason ? ` (${latest.reason})` : ''}, ${latest.mode}, last ${latest.days} day(s), ${latest.finishedAt ?? 'not finished'}.`
      : 'No dream has run yet.',
    `Last successful consolidation: ${status.lastConsolidated ?? 'never'}.`,
    status.lock ? `A dream is running now: ${status.lock}.` : 'No dream is running; /dream would start one now.',
    `Daily notes needing a summary: ${status.backlog.length}${status.backlog.length ? ` (${status.backlog.slice(0, 5).map((entry) => `${entry.day} ${entry.state}`).join(', ')}${status.backlog.length > 5 ? ', …' : ''})` : ''}.`,
    `Engine: ${status.provider}${status.model ? ` (${status.model})` : ''}.`,
  ]
  return lines.join('\n')
}
