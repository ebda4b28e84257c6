// The words a finished run posts back to its chat (manual) or logs (auto, bootstrap).
import type { RunRecord } from './types.js'

export interface PostedSummary {
  runId: string
  mode: RunRecord['mode']
  chatJid: string
  status: RunRecord['status']
  text: string
}

const STATUS_WORDS: Record<RunRecord['status'], string> = {
  queued: 'is queued',
  running: 'is running',
  succeeded: 'finished',
  degraded: 'finished in fallback mode',
  failed: 'failed',
  lost: 'was lost',
  skipped: 'was skipped',
  cancelled: 'was cancelled',
}

/** One short message: what ran, over which days, what changed, where the backup is. */
export function composeSummary(run: RunRecord, engineText: string, workspace: string): string {
  const window = run.firstDay && run.lastDay ? `${run.firstDay} → ${run.lastDay}` : `${run.days} day(s)`
  const lines = [`Dream ${STATUS_WORDS[run.status]} (${run.mode}, last ${run.days} day(s): ${window}).`]
  if (engineText.trim()) lines.push(engineText.trim())
  if (run.reason) lines.push(`Note: ${run.reason}`)
  const changed = run.changedFiles.map((file) => relative(workspace, file))
  if (changed.length > 0) {
    const shown = changed.slice(0, 8).join(', ')
    lines.push(`${changed.length} file(s) changed: ${shown}${changed.length > 8 ? ', …' : ''}.`)
  } else {
    lines.push('No files changed.')
  }
  if (run.backupId) lines.push(`Backup before the dream: ${run.backupId} (\`dreamlane backups restore ${run.backupId}\`).`)
  lines.push(`Details: \`dreamlane runs show ${run.id}\`.`)
  return lines.join('\n')
}

function relative(workspace: string, file: string): string {
  return file.startsWith(`${workspace}/`) ? file.slice(workspace.length + 1) : file
}
