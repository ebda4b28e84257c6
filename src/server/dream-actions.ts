// The two compound writes behind the API and the forms: trigger a dream through the gate, restore a backup under the lock.
import { join } from 'node:path'
import { findBackup } from '../backup/list.js'
import { restoreBackup, type RestoreResult } from '../backup/restore.js'
import type { Dreamlane } from '../create.js'
import { acquireLock } from '../dream/lock.js'
import type { DreamMode, GateOutcome, RunRecord } from '../dream/types.js'
import { markDirty } from '../fts/journal.js'
import type { Clock } from '../clock.js'

export interface TriggerOutcome {
  /** True when a run was queued or joined; false when the gate said no and nothing was written. */
  accepted: boolean
  gate: GateOutcome
  reason: string
  run: RunRecord | null
  coalesced: boolean
}

export interface TriggerInput {
  mode: Exclude<DreamMode, 'bootstrap'>
  chatJid: string
  days: number
}

/**
 * Asks the gate first, so a refused trigger leaves no run record behind. A dream already queued or running
 * in this workspace is joined (the gate says `lock`, the trigger coalesces) rather than refused.
 */
export async function triggerThroughGate(lane: Dreamlane, input: TriggerInput): Promise<TriggerOutcome> {
  const decision = await lane.gate(input.mode)
  const active = lane.runs.list({ status: ['queued', 'running'], limit: 1 })[0]
  if (decision.outcome !== 'triggered' && !(decision.outcome === 'lock' && active)) {
    return { accepted: false, gate: decision.outcome, reason: decision.reason, run: null, coalesced: false }
  }
  const result = lane.trigger({ mode: input.mode, chatJid: input.chatJid, days: input.days })
  const reason = result.coalesced
    ? `joined ${result.run.id}, which is already ${result.run.status}`
    : decision.reason
  return { accepted: true, gate: decision.outcome, reason, run: result.run, coalesced: result.coalesced }
}

/**
 * Restores a backup while holding the workspace lock, so no dream writes notes halfway through; a running
 * dream makes this fail with LOCK_HELD before anything is touched. Restored files are marked for reindexing.
 */
export async function restoreUnderLock(lane: Dreamlane, id: string, clock: Clock): Promise<RestoreResult> {
  // An unknown id is a 404 whoever holds the lock.
  await findBackup(lane.paths, id)
  const lock = await acquireLock({
    file: lane.paths.lockFile,
    runId: `restore-${id}`,
    clock,
    staleAfterMs: lane.config.dream.runTimeoutMs,
  })
  try {
    const result = await restoreBackup({ paths: lane.paths, id, clock, keep: lane.config.backups.keep })
    const touched = [...result.restored, ...result.removed].map((path) =>
      join(lane.paths.workspace, ...path.split('/')),
    )
    markDirty(lane.state, lane.paths.workspace, touched)
    return result
  } finally {
    await lock.release()
  }
}
