// Chat input that is a slash command (`/dream …`, `/dreaming …`) is answered here, before any model sees it.
import type { DreamlaneStatus } from '../app/status.js'
import type { DreamingMode, ResolvedConfig } from '../config/schema.js'
import type { GateDecision } from '../dream/gates.js'
import type { DreamMode, DreamRequest, RunRecord } from '../dream/types.js'
import { DreamlaneError } from '../errors.js'
import { describeMemoryCounts } from '../recall/status.js'
import { describeStatus, describeSweeps } from './describe-status.js'
import { DREAM_USAGE, parseDreamCommand, queuedReply, type DreamCommand } from './dream-command.js'
import { DREAMING_USAGE, parseDreamingCommand } from './dreaming-command.js'

/** What slash commands need from a dreamlane; declared here so chat/ imports nothing above it. */
export interface SlashCommandTarget {
  readonly config: Pick<ResolvedConfig, 'dream' | 'timezone'>
  trigger(request: DreamRequest): { run: RunRecord; coalesced: boolean }
  status(): Promise<DreamlaneStatus>
  gate(mode: DreamMode): Promise<GateDecision>
  apply(id?: string): Promise<{ message: string }>
  discard(id?: string): Promise<{ message: string }>
  undo(id?: string, options?: { force?: boolean }): Promise<{ message: string }>
  setAutoDream(enabled: boolean): void
  setDreamingMode(mode: DreamingMode): void
}

/** The reply to a slash command, or null when `text` is not one (the host's model answers it then). */
export async function handleSlashCommand(
  dreamlane: SlashCommandTarget,
  chatJid: string,
  text: string,
): Promise<string | null> {
  const dream = parseDreamCommand(text, dreamlane.config.dream)
  if (dream) {
    if (dream.kind === 'usage') return DREAM_USAGE
    if (dream.kind === 'status') return describeStatus(await dreamlane.status())
    if (dream.kind === 'apply' || dream.kind === 'discard' || dream.kind === 'undo')
      return reviewReply(dreamlane, dream)
    const result = dreamlane.trigger({ mode: 'manual', chatJid, days: dream.days })
    if (result.coalesced)
      return `A dream is already ${result.run.status}; this request joins it (${result.run.id}).`
    return queuedReply(dream.days, dream.clamped, dreamlane.config.dream.maxDays)
  }
  const dreaming = parseDreamingCommand(text)
  if (!dreaming) return null
  if (dreaming.kind === 'usage') return DREAMING_USAGE
  if (dreaming.kind === 'on' || dreaming.kind === 'off') dreamlane.setAutoDream(dreaming.kind === 'on')
  if (dreaming.kind === 'off') dreamlane.setDreamingMode('off')
  if (dreaming.kind === 'mode') dreamlane.setDreamingMode(dreaming.mode)
  const before = await dreamlane.status()
  // `on` brings the sweeps back with the everyday preset when they were off.
  if (dreaming.kind === 'on' && before.sweeps.mode === 'off') dreamlane.setDreamingMode('core')
  const status = dreaming.kind === 'on' ? await dreamlane.status() : before
  const gate = await dreamlane.gate('auto')
  return [
    `AutoDream is ${status.autoDream.enabled ? 'on' : 'off'} (${status.autoDream.cron} in ${dreamlane.config.timezone}, last ${dreamlane.config.dream.autoDays} day(s)).`,
    status.autoDream.nextRunAt
      ? `Next run: ${status.autoDream.nextRunLocal}.`
      : 'Not scheduled in this process.',
    `If it ran now: ${gate.outcome} — ${gate.reason}.`,
    describeSweeps(status.sweeps),
    `Last successful consolidation: ${status.lastConsolidated ?? 'never'}.`,
    describeMemoryCounts(status.memory),
  ].join('\n')
}

/** Runs a review action; a refusal (conflict, nothing held, a dream running) is the reply, not an error. */
async function reviewReply(
  dreamlane: SlashCommandTarget,
  command: Extract<DreamCommand, { kind: 'apply' | 'discard' | 'undo' }>,
): Promise<string> {
  const id = command.id ?? undefined
  try {
    if (command.kind === 'apply') return (await dreamlane.apply(id)).message
    if (command.kind === 'discard') return (await dreamlane.discard(id)).message
    return (await dreamlane.undo(id, { force: command.force })).message
  } catch (error) {
    if (error instanceof DreamlaneError) return error.message
    throw error
  }
}
