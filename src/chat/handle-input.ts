// Chat input that is a slash command (`/dream …`, `/dreaming …`) is answered here, before any model sees it.
import type { Dreamlane } from '../create.js'
import { DreamlaneError } from '../errors.js'
import { describeMemoryCounts } from '../recall/status.js'
import { describeStatus } from './describe-status.js'
import { DREAM_USAGE, parseDreamCommand, queuedReply, type DreamCommand } from './dream-command.js'
import { DREAMING_USAGE, parseDreamingCommand } from './dreaming-command.js'

/** The reply to a slash command, or null when `text` is not one (the host's model answers it then). */
export async function handleSlashCommand(
  lane: Dreamlane,
  chatJid: string,
  text: string,
): Promise<string | null> {
  const dream = parseDreamCommand(text, lane.config.dream)
  if (dream) {
    if (dream.kind === 'usage') return DREAM_USAGE
    if (dream.kind === 'status') return describeStatus(await lane.status())
    if (dream.kind === 'apply' || dream.kind === 'discard' || dream.kind === 'undo')
      return reviewReply(lane, dream)
    const result = lane.trigger({ mode: 'manual', chatJid, days: dream.days })
    if (result.coalesced)
      return `A dream is already ${result.run.status}; this request joins it (${result.run.id}).`
    return queuedReply(dream.days, dream.clamped, lane.config.dream.maxDays)
  }
  const dreaming = parseDreamingCommand(text)
  if (!dreaming) return null
  if (dreaming.kind === 'usage') return DREAMING_USAGE
  if (dreaming.kind !== 'status') lane.setAutoDream(dreaming.kind === 'on')
  const status = await lane.status()
  const gate = await lane.gate('auto')
  return [
    `AutoDream is ${status.autoDream.enabled ? 'on' : 'off'} (${status.autoDream.cron} in ${lane.config.timezone}, last ${lane.config.dream.autoDays} day(s)).`,
    status.autoDream.nextRunAt
      ? `Next run: ${status.autoDream.nextRunLocal}.`
      : 'Not scheduled in this process.',
    `If it ran now: ${gate.outcome} — ${gate.reason}.`,
    `Last successful consolidation: ${status.lastConsolidated ?? 'never'}.`,
    describeMemoryCounts(status.memory),
  ].join('\n')
}

/** Runs a review action; a refusal (conflict, nothing held, a dream running) is the reply, not an error. */
async function reviewReply(
  lane: Dreamlane,
  command: Extract<DreamCommand, { kind: 'apply' | 'discard' | 'undo' }>,
): Promise<string> {
  const id = command.id ?? undefined
  try {
    if (command.kind === 'apply') return (await lane.apply(id)).message
    if (command.kind === 'discard') return (await lane.discard(id)).message
    return (await lane.undo(id, { force: command.force })).message
  } catch (error) {
    if (error instanceof DreamlaneError) return error.message
    throw error
  }
}
