// Use case: the workspace's status as `status`, `/dream status` and /api/status show it.
import { readBacklog, type BacklogEntry } from '../notes/backlog.js'
import { describeLock, readLock, staleReason } from '../notes/lock.js'
import { memoryCounts, type MemoryCounts } from '../recall/status.js'
import { nextFireTimes } from '../schedule/autodream.js'
import { SWEEP_MODES, type RunRecord, type SweepMode } from '../dream/types.js'
import { checkGates, type GateDecision, type GateDeps } from '../dream/gates.js'
import type { DreamQueue } from '../dream/queue.js'
import type { ModelProvider } from '../model/provider.js'
import type { DreamingMode } from '../config/schema.js'
import { dayWindow, localDayOf, localTimeOf } from '../time/local-day.js'

export interface DreamlaneStatus {
  workspace: string
  provider: string
  model: string | null
  providerReason: string
  activeRun: string | null
  /** The run queued or running now, in this process or another (any mode: manual, auto, bootstrap, sweep). */
  runningRun: RunRecord | null
  lock: string | null
  /** A lock left by a process that is gone (a crash, kill -9 mid-dream or mid-restore): what it was and why stale. */
  staleLock: string | null
  latestRun: RunRecord | null
  lastConsolidated: string | null
  backlog: BacklogEntry[]
  autoDream: { enabled: boolean; cron: string; nextRunAt: string | null; nextRunLocal: string | null }
  memory: MemoryCounts
  /** What the AutoDream gate cascade says right now, with the sessions and signal counts against their thresholds. */
  gate: GateDecision
  /** The promotion sweeps' mode and when each phase fires next. */
  sweeps: { mode: DreamingMode; nextLocal: Record<SweepMode, string | null> }
}

/**
 * What status reads: the gates' stores, the provider's name, and the dream queue's active run (an
 * AppContext has them all; `dreamlane status` wires only these).
 */
export interface StatusDeps extends GateDeps {
  provider: Pick<ModelProvider, 'name' | 'model'>
  dreams: Pick<DreamQueue, 'activeRunId'>
}

/** What `status` cannot read from the workspace: which engine was chosen and why, and this process's schedule. */
export interface StatusExtras {
  /** The model the selected provider uses; undefined when the provider was injected. */
  model: string | null | undefined
  providerReason: string
  /** When the schedule running in this process fires next; null when none runs here. */
  scheduledAt: Date | null
}

export async function readDreamlaneStatus(ctx: StatusDeps, extras: StatusExtras): Promise<DreamlaneStatus> {
  const { config, clock, paths, settings, runs } = ctx
  const [holder, backlog] = await Promise.all([
    readLock(paths.lockFile),
    readBacklog(paths, dayWindow(clock.now(), config.dream.defaultDays, config.timezone).days),
  ])
  const stale = holder ? staleReason(holder, { clock, staleAfterMs: config.dream.runTimeoutMs }) : null
  const live = holder && stale === null
  const enabled = settings.autoDreamEnabled(config.autoDream.enabled)
  // Outside `serve` nothing is scheduled in this process; the next fire time is still what the schedule says.
  const next =
    extras.scheduledAt ??
    (enabled ? (nextFireTimes(config.autoDream.cron, config.timezone, clock.now())[0] ?? null) : null)
  return {
    workspace: paths.workspace,
    provider: ctx.provider.name,
    model: extras.model !== undefined ? extras.model : (config.dream.model ?? ctx.provider.model ?? null),
    providerReason: extras.providerReason,
    activeRun: ctx.dreams.activeRunId,
    runningRun: runningRun(ctx),
    lock: live && holder ? describeLock(holder) : null,
    staleLock: holder && stale ? `${describeLock(holder)}: ${stale}` : null,
    latestRun: runs.latest(),
    lastConsolidated: runs.lastSucceeded()?.finishedAt ?? null,
    backlog,
    autoDream: {
      enabled,
      cron: config.autoDream.cron,
      nextRunAt: next?.toISOString() ?? null,
      nextRunLocal: next
        ? `${localDayOf(next, config.timezone)} ${localTimeOf(next, config.timezone)} ${config.timezone}`
        : null,
    },
    memory: memoryCounts(ctx.state, clock, config),
    gate: await checkGates('auto', ctx),
    sweeps: {
      mode: settings.dreamingMode(config.sweeps.mode),
      nextLocal: Object.fromEntries(
        SWEEP_MODES.map((mode) => {
          const at = nextFireTimes(
            config.sweeps[mode].cron,
            config.timezone,
            clock.now(),
            1,
            `sweeps.${mode}.cron`,
          )[0]
          return [
            mode,
            at
              ? `${localDayOf(at, config.timezone)} ${localTimeOf(at, config.timezone)} ${config.timezone}`
              : null,
          ]
        }),
      ) as Record<SweepMode, string | null>,
    },
  }
}

/** This process's active run, else the newest run another process left queued or running within the run timeout. */
function runningRun(ctx: StatusDeps): RunRecord | null {
  const { runs, clock, config } = ctx
  const own = ctx.dreams.activeRunId
  if (own) return runs.get(own)
  const horizon = clock.now().getTime() - config.dream.runTimeoutMs
  const other = runs.list({ status: ['queued', 'running'], limit: 1 })[0]
  return other && new Date(other.createdAt).getTime() > horizon ? other : null
}
