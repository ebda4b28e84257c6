// The words of `/dream status` and `dreamlane status`.
import type { DreamlaneStatus } from '../app/status.js'
import { describeMemoryCounts } from '../recall/status.js'
import { describeDeprecation } from '../model/deprecated.js'

/** The `/dream status` reply. */
export function describeStatus(status: DreamlaneStatus): string {
  const latest = status.latestRun
  const lines = [
    latest
      ? `Latest dream: ${latest.id} — ${latest.status}${latest.reason ? ` (${latest.reason})` : ''}, ${latest.mode}, last ${latest.days} day(s), ${latest.finishedAt ?? 'not finished'}.`
      : 'No dream has run yet.',
    `Last successful consolidation: ${status.lastConsolidated ?? 'never'}.`,
    describeRunning(status),
    ...(status.staleLock
      ? [
          status.staleLock.startsWith('run restore-')
            ? `Interrupted restore: ${status.staleLock}; the notes may be partly restored — run \`dreamlane doctor\`.`
            : `Stale lock: ${status.staleLock}; the next dream reaps it.`,
        ]
      : []),
    `Daily notes needing a summary: ${status.backlog.length}${
      status.backlog.length
        ? ` (${status.backlog
            .slice(0, 5)
            .map((entry) => `${entry.day} ${entry.state}`)
            .join(', ')}${status.backlog.length > 5 ? ', …' : ''})`
        : ''
    }.`,
    `AutoDream: ${status.autoDream.enabled ? 'on' : 'off'}${status.autoDream.nextRunLocal ? `, next ${status.autoDream.nextRunLocal}` : ''}.`,
    describeSweeps(status.sweeps),
    `AutoDream gate now: ${status.gate.outcome} — ${status.gate.reason}.`,
    describeMemoryCounts(status.memory),
    `Engine: ${status.provider}${status.model ? ` (${status.model})` : ''} — ${status.providerReason}.`,
  ]
  const deprecated = status.provider === 'anthropic' ? describeDeprecation(status.model) : null
  if (deprecated) lines.push(`Warning: ${deprecated}.`)
  return lines.join('\n')
}

/** Whether a dream runs now: a queued or running run of any mode counts, with or without the lock taken yet. */
function describeRunning(status: DreamlaneStatus): string {
  const run = status.runningRun
  if (run) {
    const since = run.startedAt ? `running since ${run.startedAt}` : `queued at ${run.createdAt}`
    return `A ${run.mode} dream is ${run.status} now: ${run.id} (${since}, last ${run.days} day(s))${status.lock ? `; lock: ${status.lock}` : ''}.`
  }
  if (status.lock) return `A dream is running now: ${status.lock}.`
  return 'No dream is running; /dream would start one now.'
}

/** "Promotion sweeps: core (light next …, deep next …, rem next …)." */
export function describeSweeps(sweeps: DreamlaneStatus['sweeps']): string {
  if (sweeps.mode === 'off') return 'Promotion sweeps: off (`/dreaming core|deep|rem` turns them on).'
  const next = (['light', 'deep', 'rem'] as const)
    .map((mode) => `${mode} next ${sweeps.nextLocal[mode] ?? 'not scheduled'}`)
    .join(', ')
  return `Promotion sweeps: ${sweeps.mode} preset (${next}).`
}
