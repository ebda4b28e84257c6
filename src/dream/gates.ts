// The gate cascade: one function decides whether a dream runs, with a named outcome everyone shares.
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { MessagesDb } from '../db/messages.js'
import type { StateDb } from '../db/state.js'
import { readBacklog } from '../notes/backlog.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { countRecallEventsSince } from '../recall/signal.js'
import { dayWindow } from '../time/local-day.js'
import { describeLock, readLock, staleReason } from '../notes/lock.js'
import type { RunStore } from './runs.js'
import type { SettingsStore } from './settings.js'
import { isSweepMode, type DreamMode, type GateOutcome } from './types.js'

/** What the `sessions` and `signal` gates counted, against their thresholds (absent when not reached). */
export interface GateMeasures {
  sessions?: { count: number; threshold: number; since: string | null }
  signal?: { count: number; minimum: number; since: string | null }
}

export interface GateDecision {
  outcome: GateOutcome
  /** Why, in words (for logs, CLI, chat and the skipped run's record). */
  reason: string
  measures: GateMeasures
}

export interface GateDeps {
  config: ResolvedConfig
  paths: WorkspacePaths
  clock: Clock
  runs: RunStore
  settings: SettingsStore
  messages: MessagesDb
  state: StateDb
}

/**
 * disabled → lock → time → sessions → signal → triggered. Manual and bootstrap dreams were asked for
 * explicitly, so only the lock applies to them; AutoDream passes every gate; a promotion sweep passes
 * disabled, lock and signal (its cadence is its clock, and it reads recall, not sessions).
 */
export async function checkGates(mode: DreamMode, deps: GateDeps): Promise<GateDecision> {
  const measures: GateMeasures = {}
  const decide = (outcome: GateOutcome, reason: string): GateDecision => ({ outcome, reason, measures })
  if (mode === 'auto' && !deps.settings.autoDreamEnabled(deps.config.autoDream.enabled))
    return decide('disabled', 'AutoDream is off (`/dreaming on` turns it back on)')
  if (isSweepMode(mode) && deps.settings.dreamingMode(deps.config.sweeps.mode) === 'off')
    return decide('disabled', 'promotion sweeps are off (`/dreaming core|deep|rem` turns them on)')
  const holder = await readLock(deps.paths.lockFile)
  if (
    holder &&
    staleReason(holder, { clock: deps.clock, staleAfterMs: deps.config.dream.runTimeoutMs }) === null
  ) {
    return decide('lock', `a dream is already running: ${describeLock(holder)}`)
  }
  if (isSweepMode(mode)) return signalGate(mode, deps, measures, deps.config.sweeps.minNewRecalls)
  if (mode !== 'auto') return decide('triggered', `${mode} dream requested`)

  const last = deps.runs.lastSucceeded()
  if (!last?.finishedAt) return decide('triggered', 'no prior consolidation')
  // The time gate spaces the *nightly* runs: a manual `/dream` late in the evening must not push the 01:00
  // AutoDream off by a day, so it counts from the last successful auto dream only.
  const lastAuto = deps.runs.lastSucceeded('auto')
  if (lastAuto?.finishedAt) {
    const hours = (deps.clock.now().getTime() - new Date(lastAuto.finishedAt).getTime()) / 3_600_000
    const minHours = deps.config.autoDream.minHoursSinceSuccess
    if (hours < minHours)
      return decide('time', `last successful auto dream ${hours.toFixed(1)} h ago (minimum ${minHours} h)`)
  }
  const since = new Date(last.finishedAt)
  const trees = deps.messages.countSessionTreesSince(since)
  const threshold = deps.config.autoDream.minSessions
  measures.sessions = { count: trees, threshold, since: last.finishedAt }
  if (trees < threshold) {
    // Only the auto window's backlog counts: that is all an auto dream could fix.
    const window = dayWindow(deps.clock.now(), deps.config.dream.autoDays, deps.config.timezone)
    const backlog = await readBacklog(deps.paths, window.days)
    if (backlog.length === 0)
      return decide(
        'sessions',
        `${trees} session tree(s) since ${last.finishedAt}, fewer than ${threshold}, and no daily note needs a summary`,
      )
    return signalGate(
      mode,
      deps,
      measures,
      deps.config.autoDream.minNewRecalls,
      `${trees} session tree(s) (threshold ${threshold}), but ${backlog.length} daily note(s) still need a summary`,
    )
  }
  return signalGate(
    mode,
    deps,
    measures,
    deps.config.autoDream.minNewRecalls,
    `${trees} session tree(s) active since ${last.finishedAt} (threshold ${threshold})`,
  )
}

/**
 * Enough new recall signal: interactive recall events since the last successful run of this mode. A minimum
 * of 0 (AutoDream's default) lets every run through while still reporting the count.
 */
function signalGate(
  mode: DreamMode,
  deps: GateDeps,
  measures: GateMeasures,
  minimum: number,
  passed = `${mode} sweep requested`,
): GateDecision {
  const last = deps.runs.lastSucceeded(mode)?.finishedAt ?? null
  const count = countRecallEventsSince(deps.state, last ? Date.parse(last) : 0)
  measures.signal = { count, minimum, since: last }
  const since = last ? `since ${last}` : 'so far'
  if (count < minimum)
    return {
      outcome: 'signal',
      reason: `${count} new recall event(s) ${since}, fewer than ${minimum}`,
      measures,
    }
  return { outcome: 'triggered', reason: `${passed}; ${count} new recall event(s) ${since}`, measures }
}
