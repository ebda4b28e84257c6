// The words a finished run posts back to its chat (manual) or logs (auto, bootstrap), and the posting itself.
import type { SecretKind } from '../secrets/types.js'
import { withholdSecrets } from '../secrets/withhold.js'
import { DREAMLANE_SENDER } from '../db/messages.js'
import { describeCounts } from '../ledger/ledger.js'
import type { LossFlag } from '../ledger/types.js'
import type { DreamDeps } from './deps.js'
import type { PostedSummary, RunRecord, SummaryMessage, UnresolvedDay } from './types.js'

export type { PostedSummary }

const STATUS_WORDS: Record<RunRecord['status'], string> = {
  queued: 'is queued',
  running: 'is running',
  succeeded: 'finished',
  degraded: 'finished degraded (retryable)',
  failed: 'failed',
  lost: 'was lost',
  skipped: 'was skipped',
  cancelled: 'was cancelled',
  held: 'is ready for review',
  discarded: 'was discarded',
  undone: 'was undone',
}

/** Flags named in the summary; the rest are counted. */
const FLAGS_SHOWN = 6

/**
 * One short message: what ran, over which days, what changed (or waits for review), how to see or undo it.
 * `keepKinds`: the secret kinds the user keeps (`privacy.keepSecretKinds`), kept here as in the notes.
 */
export function composeSummary(
  run: RunRecord,
  engineText: string,
  workspace: string,
  keepKinds: readonly SecretKind[] = [],
): string {
  const window = run.firstDay && run.lastDay ? `${run.firstDay} → ${run.lastDay}` : `${run.days} day(s)`
  const lines = [`Dream ${STATUS_WORDS[run.status]} (${run.mode}, last ${run.days} day(s): ${window}).`]
  // The model's own words may repeat a secret it was told: the record and the chat post never do.
  if (engineText.trim()) lines.push(withholdSecrets(engineText.trim(), { keepKinds }).text)
  if (run.reason) lines.push(`Note: ${run.reason}`)
  const counts = run.changes ? describeCounts(run.changes) : null
  if (run.status === 'held') {
    lines.push(
      `Dream ready for review: ${counts ?? 'changes staged'} — nothing was written to your notes yet.`,
    )
    lines.push(`Held because ${run.holdReasons.join('; ')}.`)
  } else if (run.changedFiles.length > 0 || (run.changes?.files ?? 0) > 0) {
    const changed = run.changedFiles.map((file) => relative(workspace, file))
    const shown =
      changed.length > 0 ? `: ${changed.slice(0, 8).join(', ')}${changed.length > 8 ? ', …' : ''}` : ''
    // Named as the whole run's changes (seeding and the index pass included), so it never reads as
    // contradicting an engine line about what consolidation found.
    lines.push(
      `Notes changed by this run (seeding included): ${counts ?? `${changed.length} file(s) changed`}${shown}.`,
    )
  } else {
    lines.push('No files changed.')
  }
  if (run.unresolvedDays.length > 0)
    lines.push(`Still unresolved: ${describeUnresolved(run.unresolvedDays)}.`)
  if (run.lossFlags.length > 0 && run.status !== 'held')
    lines.push(`Loss guard: ${describeFlags(run.lossFlags)}.`)
  lines.push(...nextSteps(run))
  return lines.join('\n')
}

/** "2026-11-19 (partial), 2026-11-20 (unsummarised)" — every day, so nothing left undone goes unnamed. */
export function describeUnresolved(days: readonly UnresolvedDay[]): string {
  return days.map((entry) => `${entry.day} (${entry.state})`).join(', ')
}

/** "Porto (name, notes/memory/user.md), 2026-11-03 (date, …), +2 more" */
export function describeFlags(flags: readonly LossFlag[]): string {
  const shown = flags.slice(0, FLAGS_SHOWN).map((flag) => `${flag.term} (${flag.kind}, ${flag.path})`)
  const more = flags.length > FLAGS_SHOWN ? `, +${flags.length - FLAGS_SHOWN} more` : ''
  return `${flags.length} item(s) vanished from memory: ${shown.join(', ')}${more}`
}

function nextSteps(run: RunRecord): string[] {
  if (run.status === 'held') {
    return [
      `Apply it with \`/dream apply\` or drop it with \`/dream discard\` (\`dreamlane runs apply|discard ${run.id}\`).`,
      `See the diff: \`dreamlane runs show ${run.id} --diff\`.`,
    ]
  }
  const lines: string[] = []
  if (run.backupId)
    lines.push(`Backup before the dream: ${run.backupId} (\`dreamlane backups restore ${run.backupId}\`).`)
  if ((run.changes?.files ?? 0) > 0) {
    lines.push(
      `See the diff: \`dreamlane runs show ${run.id} --diff\`; undo it with \`/dream undo\` (\`dreamlane runs undo ${run.id}\`).`,
    )
  } else {
    lines.push(`Details: \`dreamlane runs show ${run.id}\`.`)
  }
  return lines
}

function relative(workspace: string, file: string): string {
  return file.startsWith(`${workspace}/`) ? file.slice(workspace.length + 1) : file
}

/**
 * Manual runs reply in their chat (a bot message); every run reaches the host hook and the log. A skipped run
 * posts nothing to chat, and a dry run only logs: it is a rehearsal nobody else should hear about. Returns
 * the stored message, or null when nothing was stored.
 */
export async function postSummary(
  record: RunRecord,
  deps: Pick<DreamDeps, 'log' | 'clock' | 'messages' | 'onSummary'>,
  isDryRun = false,
): Promise<SummaryMessage | null> {
  const text = record.summary ?? ''
  deps.log.info(
    { runId: record.id, status: record.status, mode: record.mode, dryRun: isDryRun },
    text.split('\n')[0] ?? '',
  )
  if (isDryRun) return null
  let message: SummaryMessage | null = null
  if (record.mode === 'manual' && record.status !== 'skipped') {
    const at = deps.clock.now().toISOString()
    const stored: SummaryMessage = {
      id: `dream-summary-${record.id}`,
      chatJid: record.chatJid,
      sender: DREAMLANE_SENDER,
      senderName: 'Dream',
      content: text,
      timestamp: at,
    }
    // The run is already closed; a host holding the messages DB locked costs the chat reply, not the run.
    try {
      deps.messages.upsertChat(record.chatJid, null, at)
      deps.messages.insertMessages([{ ...stored, isBotMessage: true }])
      message = stored
    } catch (error) {
      deps.log.warn({ err: error, runId: record.id }, 'could not post the summary to the messages DB')
    }
  }
  try {
    await deps.onSummary?.({
      runId: record.id,
      mode: record.mode,
      chatJid: record.chatJid,
      status: record.status,
      text,
      message,
    })
  } catch (error) {
    deps.log.warn({ err: error, runId: record.id }, 'onSummary hook failed')
  }
  return message
}
