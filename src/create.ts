// Wires the real dependencies into a Dreamlane: config, DBs, providers, lanes, the dream queue, schedules.
import { pino } from 'pino'
import type { AppContext } from './app/context.js'
import { hostDreamThread } from './app/dream-thread.js'
import { wireDreamDeps } from './app/dream-deps.js'
import { checkGate, retryRun, triggerDream, triggerThroughGate } from './app/dream.js'
import type { Dreamlane, DreamlaneInternals, DreamlaneOptions } from './app/dreamlane.js'
import { chatPrivacyOf, listExcludedChats, setChatPrivate } from './app/chat-privacy.js'
import { promoteMemory } from './app/promote.js'
import { recover } from './app/recover.js'
import { restoreFromBackup } from './app/restore.js'
import { applyRun, discardRun, dryRun, listChanges, undoDream } from './app/review.js'
import { bootstrapWorkspace, startAutoDream, type Schedules } from './app/schedule.js'
import { readDreamlaneStatus } from './app/status.js'
import { openWorkspaceStores } from './app/stores.js'
import { handleSlashCommand } from './chat/handle-input.js'
import { systemClock } from './clock.js'
import { resolveHostConfig } from './config/resolve.js'
import type { DreamEvent } from './dream/deps.js'
import { DreamQueue } from './dream/queue.js'
import { assertWorkspaceExists, workspacePaths } from './notes/paths.js'
import { AutoRetry } from './schedule/auto-retry.js'
import { systemTimers } from './schedule/timers.js'

export type { Dreamlane, DreamlaneInternals, DreamlaneOptions }

/** Opens one workspace for a host: its config, DBs, provider, dream queue and (when started) schedules. */
export const createDreamlane = (options?: DreamlaneOptions): Dreamlane => openDreamlane(options)

/** createDreamlane for hosts inside this package, which also reach the opened stores and lanes. */
export function openDreamlane(options: DreamlaneOptions = {}): DreamlaneInternals {
  const env = options.env ?? process.env
  const config = resolveHostConfig(options, env)
  const paths = workspacePaths(config)
  assertWorkspaceExists(paths.workspace)
  const clock = options.clock ?? systemClock
  const timers = options.timers ?? systemTimers
  const log = options.logger ?? pino({ level: env.DREAMLANE_LOG_LEVEL ?? 'warn' }, pino.destination(2))
  const stores = openWorkspaceStores(paths, options)
  const { state } = stores
  const abort = new AbortController()
  const autoRetry = new AutoRetry({
    ...{ delaysMinutes: config.autoDream.retryDelaysMinutes, timers, log },
    retry: (id) => retryRun(ctx, id),
  })
  const { deps, selected } = wireDreamDeps({
    ...{ config, paths, env, clock, log, stores, signal: abort.signal, provider: options.provider },
    ...{
      modelGate: options.modelGate,
      onModelRetry: options.onModelRetry,
      engineIdleMs: options.engineIdleMs,
    },
    onSummary: options.onSummary,
    onEvent: (event: DreamEvent) => {
      options.onEvent?.(event)
      if (event.type === 'finished') autoRetry.consider(event.run)
    },
  })
  const dreamThread = hostDreamThread(options, { env, log, deps, offline: selected?.name === 'offline' })
  if (dreamThread) deps.runElsewhere = (runId, request) => dreamThread.run(runId, request)
  const ctx: AppContext = { ...deps, dreams: new DreamQueue(deps) }
  let scheduler: Schedules | null = null

  const dreamlane: DreamlaneInternals = {
    ...{ config, paths, runs: ctx.runs, messages: ctx.messages, state, lanes: deps.lanes },
    listRuns: (filter) => ctx.runs.list(filter),
    getRun: (id) => ctx.runs.get(id),
    trigger: (request) => triggerDream(ctx, request),
    triggerThroughGate: (input) => triggerThroughGate(ctx, input),
    dream: (request) => triggerDream(ctx, request).done,
    warmDreams: () => (dreamThread ? dreamThread.warm() : import('./dream/run.js').then(() => undefined)),
    retry: (id) => retryRun(ctx, id),
    gate: (mode) => checkGate(ctx, mode),
    apply: (id) => applyRun(ctx, id),
    discard: (id) => discardRun(ctx, id),
    undo: (id, undoOptions) => undoDream(ctx, id, undoOptions),
    // The host's own listener only: the rehearsal's finished event must not schedule retries of a scratch run.
    dryRun: (request) => dryRun({ ...ctx, onEvent: options.onEvent }, request),
    restore: (id) => restoreFromBackup(ctx, id),
    promote: (promoteOptions) => promoteMemory(ctx, promoteOptions),
    changes: (id) => listChanges(ctx, id),
    previewForget: async (what) => (await import('./app/forget.js')).previewForget(ctx, what),
    forget: async (what, forgetOptions) =>
      (await import('./app/forget.js')).confirmForget(ctx, what, forgetOptions),
    undoForget: async (id) => (await import('./app/forget-undo.js')).undoForget(ctx, id),
    setPrivate: (chatJid, on) => setChatPrivate(ctx, chatJid, on),
    chatPrivacy: (chatJid) => chatPrivacyOf(ctx, chatJid),
    excludedChats: () => listExcludedChats(ctx),
    handleChatInput: (chatJid, text) => (
      scheduler?.noteChat(chatJid),
      handleSlashCommand(dreamlane, chatJid, text, clock.now())
    ),
    status: () =>
      readDreamlaneStatus(ctx, {
        model: selected ? selected.model : undefined,
        providerReason: options.providerReason ?? selected?.reason ?? 'injected by the host',
        scheduledAt: scheduler?.nextRunAt ?? null,
      }),
    recover: () => recover(ctx),
    bootstrap: () => bootstrapWorkspace(ctx),
    startAutoDream: () => void (scheduler = startAutoDream(ctx, timers, scheduler)),
    setAutoDream: (enabled) => ctx.settings.setAutoDreamEnabled(enabled, clock.now()),
    setDreamingMode: (mode) => ctx.settings.setDreamingMode(mode, clock.now()),
    async shutdown() {
      scheduler?.stop()
      autoRetry.stop()
      abort.abort()
      dreamThread?.abort()
      await dreamlane.close()
    },
    async close() {
      await ctx.dreams.idle()
      await deps.lanes.onIdle()
      await dreamThread?.close()
      await stores.close()
    },
  }
  return dreamlane
}
