// Start-up recovery after a crash: reap a stale lock, mark abandoned runs lost, delete leftover dream channels.
import { removeLeftoverChannels } from './channel.js'
import type { DreamDeps } from './deps.js'
import { removeOrphanTemps } from '../notes/atomic-write.js'
import { isPidAlive, readLock, reapStaleLock, staleReason } from '../notes/lock.js'

export interface RecoveryReport {
  reapedLock: string | null
  lostRuns: string[]
  removedChannels: string[]
  /** Temp files a killed writer left in notes/ (kill -9 mid-restore or mid-dream). */
  removedTemps: string[]
}

export async function recoverWorkspace(
  deps: Pick<DreamDeps, 'paths' | 'clock' | 'config' | 'runs' | 'messages' | 'log'>,
): Promise<RecoveryReport> {
  const options = {
    file: deps.paths.lockFile,
    clock: deps.clock,
    staleAfterMs: deps.config.dream.runTimeoutMs,
  }
  const reaped = await reapStaleLock(options)
  const holder = await readLock(deps.paths.lockFile)
  // A live lock means another process is dreaming right now: its run and channel are not ours to touch.
  if (holder && staleReason(holder, options) === null) {
    return { reapedLock: reaped?.runId ?? null, lostRuns: [], removedChannels: [], removedTemps: [] }
  }
  const lostRuns = deps.runs.markAbandonedLost('the process running it stopped before it finished')
  let removedChannels: string[] = []
  try {
    removedChannels = removeLeftoverChannels(deps.messages)
  } catch (error) {
    // A host holding the messages DB: the leftover channels wait for the next start.
    deps.log.warn({ err: error }, 'could not remove leftover dream channels')
  }
  const removedTemps = await removeOrphanTemps([deps.paths.daily, deps.paths.memory], isPidAlive)
  if (reaped || lostRuns.length || removedChannels.length || removedTemps.length) {
    deps.log.warn(
      { reapedLock: reaped?.runId, lostRuns, removedChannels, removedTemps },
      'recovered from an interrupted dream',
    )
  }
  return { reapedLock: reaped?.runId ?? null, lostRuns, removedChannels, removedTemps }
}
