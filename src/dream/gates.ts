// The gate cascade: one function decides whether a dream runs, with a named outcome everyone shares.
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { MessagesDb } from '../db/messages.js'
import { readBacklog } from '../notes/backlog.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { dayWindow } from '../time/local-day.js'
import { describeLock, readLock, staleReason } from '../notes/lock.js'
import type { RunStore } from './runs.js'
import type { SettingsStore } from './settings.js'
import type { DreamMode, GateOutcome } from './types.js'

export interface GateDecision {
  outcome: GateOutcome
  /** Why, in words (for logs, CLI, chat and the skipped run's record). */
  reason: string
}

export interface GateDeps {
  config: ResolvedConfig
  paths: WorkspacePaths
  clock: Clock
  runs: RunStore
  settings: SettingsStore
  messages: MessagesDb
}

/**
 * disabled → lock → time → sessions → triggered. Manual and bootstrap dreams were asked for explicitly, so only
 * the lock applies to them; AutoDream passes every gate. No prior successful dream → triggered.
 */
export async function checkGates(mode: DreamMode, deps: GateDeps): Promise<GateDecision> {
  if (mode === 'auto' && !deps.settings.autoDreamEnabled(deps.config.autoDream.enabled)) {
    return { outcome: 'disabled', reason: 'AutoDream is off (`/dreaming on` turns it back on)' }
  }
  const holder = await readLock(deps.paths.lockFile)
  if (
    holder &&
    staleReason(holder, { clock: deps.clock, staleAfterMs: deps.config.dream.runTimeoutMs }) === null
  ) {
    return { outcome: 'lock', reason: `a dream is already running: ${describeLock(holder)}` }
  }
  if (mode !== 'auto') return { outcome: 'triggered', reason: `${mode} dream requested` }

  const last = deps.runs.lastSucceeded()
  if (!last?.finishedAt) return { outcome: 'triggered', reason: 'no prior consolidation' }
  // The time gate spaces the *nightly* runs: a manual `/dream` late in the evening must not push the 01:00
  // AutoDream off by a day, so it counts from the last successful auto dream only.
  const lastAuto = deps.runs.lastSucceeded('auto')
  if (lastAuto?.finishedAt) {
    const hours = (deps.clock.now().getTime() - new Date(lastAuto.finishedAt).getTime()) / 3_600_000
    const minHours = deps.config.autoDream.minHoursSinceSuccess
    if (hours < minHours) {
      return {
        outcome: 'time',
        reason: `last successful auto dream ${hours.toFixed(1)} h ago (minimum ${minHours} h)`,
      }
    }
  }
  const since = new Date(last.finishedAt)
  const trees = deps.messages.countSessionTreesSince(since)
  if (trees === 0) {
    // Only the auto window's backlog counts: that is all an auto dream could fix.
    const window = dayWindow(deps.clock.now(), deps.config.dream.autoDays, deps.config.timezone)
    const backlog = await readBacklog(deps.paths, window.days)
    if (backlog.length === 0)
      return { outcome: 'sessions', reason: `no new sessions since ${last.finishedAt}` }
    return {
      outcome: 'triggered',
      reason: `no new sessions, but ${backlog.length} daily note(s) still need a summary`,
    }
  }
  return { outcome: 'triggered', reason: `${trees} session tree(s) active since ${last.finishedAt}` }
}
