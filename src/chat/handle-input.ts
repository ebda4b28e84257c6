// Chat input that is a slash command (`/dream …`, `/dreaming …`) is answered here, before any model sees it.
import type { DreamlaneStatus } from '../app/status.js'
import type { DreamingMode, ResolvedConfig } from '../config/schema.js'
import type { MessagesDb } from '../db/messages.js'
import type { GateDecision } from '../dream/gates.js'
import type { DreamMode, DreamRequest, RunRecord } from '../dream/types.js'
import { DreamlaneError } from '../errors.js'
import { describeMemoryCounts } from '../recall/status.js'
import { describeStatus, describeSweeps } from './describe-status.js'
import { DREAM_USAGE, parseDreamCommand, queuedReply, type DreamCommand } from './dream-command.js'
import { DREAMING_USAGE, parseDreamingCommand } from './dreaming-command.js'
import {
  FORGET_ASK,
  FORGET_USAGE,
  parseForgetCommand,
  previewReply,
  type ForgetCommand,
} from './forget-command.js'
import { pointedForget, relationsIn } from './forget-pointer.js'
import { PRIVATE_USAGE, parsePrivateCommand, type PrivateCommand } from './private-command.js'

/** What slash commands need from a dreamlane; declared here so chat/ imports nothing above it. */
export interface SlashCommandTarget {
  readonly config: Pick<ResolvedConfig, 'dream' | 'timezone'>
  /** The chat history a request like "forget what I just said" points back into. */
  readonly messages: MessagesDb
  trigger(request: DreamRequest): { run: RunRecord; coalesced: boolean }
  status(): Promise<DreamlaneStatus>
  gate(mode: DreamMode): Promise<GateDecision>
  apply(id?: string): Promise<{ message: string }>
  discard(id?: string): Promise<{ message: string }>
  undo(id?: string, options?: { force?: boolean }): Promise<{ message: string }>
  setAutoDream(enabled: boolean): void
  setDreamingMode(mode: DreamingMode): void
  previewForget(what: string): Promise<{
    message: string
    items: readonly { kind: string; text: string }[]
    token: string
  }>
  forget(
    what: string,
    options: { token?: string; purgeBackups?: boolean; chatJid?: string },
  ): Promise<{ message: string }>
  undoForget(id?: string): Promise<{ message: string }>
  /** Starts (`on`) or ends this chat's private stretch; false when it already was (or was not) private. */
  setPrivate(chatJid: string, on: boolean): boolean
  chatPrivacy(chatJid: string): ChatPrivacy
}

/** Whether a chat is kept out of memory: whole (config), or from `privateSince` on (`/private on`). */
export interface ChatPrivacy {
  excluded: boolean
  privateSince: string | null
}

/** The preview each chat was last shown, which `/forget confirm` removes (nothing else). */
const pendingForgets = new WeakMap<SlashCommandTarget, Map<string, { what: string; token: string }>>()

/**
 * The reply to a slash command, or null when `text` is not one (the host's model answers it then). `now`: the
 * host's clock, for reading the chat back.
 */
export async function handleSlashCommand(
  dreamlane: SlashCommandTarget,
  chatJid: string,
  text: string,
  now: Date,
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
  const forget = parseForgetCommand(text)
  if (forget) return forgetReply(dreamlane, chatJid, forget, { text, now })
  const privacy = parsePrivateCommand(text)
  if (privacy) return privateReply(dreamlane, chatJid, privacy)
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

/** A forget step; a refusal (nothing pending, a stale preview, a dream running) is the reply, not an error. */
async function forgetReply(
  dreamlane: SlashCommandTarget,
  chatJid: string,
  command: ForgetCommand,
  request: { text: string; now: Date },
): Promise<string> {
  let pending = pendingForgets.get(dreamlane)
  if (!pending) pendingForgets.set(dreamlane, (pending = new Map()))
  try {
    if (command.kind === 'usage') return FORGET_USAGE
    if (command.kind === 'ask') {
      // "Don't remember that": the user's last turn, previewed as `/forget <what it names>` would be.
      const pointed = pointedForget(dreamlane.messages, chatJid, request.text, request.now)
      if (!pointed) return FORGET_ASK
      const first = await dreamlane.previewForget(pointed.what)
      const relations = relationsIn(first.items)
      const what = [pointed.what, ...relations].join(', ')
      const preview = relations.length > 0 ? await dreamlane.previewForget(what) : first
      pending.set(chatJid, { what, token: preview.token })
      return `${pointed.intro}\n${previewReply(preview.message, preview.items.length > 0)}`
    }
    if (command.kind === 'cancel')
      return pending.delete(chatJid)
        ? 'Nothing was removed; the preview is dropped.'
        : 'No forget is waiting here.'
    if (command.kind === 'undo') return (await dreamlane.undoForget(command.id ?? undefined)).message
    if (command.kind === 'preview') {
      const preview = await dreamlane.previewForget(command.what)
      pending.set(chatJid, { what: command.what, token: preview.token })
      return previewReply(preview.message, preview.items.length > 0)
    }
    const waiting = pending.get(chatJid)
    if (!waiting) return 'No forget is waiting for confirmation here: say `/forget <what>` first.'
    pending.delete(chatJid)
    const result = await dreamlane.forget(waiting.what, {
      token: waiting.token,
      purgeBackups: command.purgeBackups,
      chatJid,
    })
    return result.message
  } catch (error) {
    if (error instanceof DreamlaneError) return error.message
    throw error
  }
}

function privateReply(dreamlane: SlashCommandTarget, chatJid: string, command: PrivateCommand): string {
  if (command.kind === 'usage') return PRIVATE_USAGE
  const before = dreamlane.chatPrivacy(chatJid)
  if (before.excluded)
    return 'This chat is excluded from memory by memory.excludeChats: nothing of it reaches a dream, a cue or the index.'
  if (command.kind === 'status')
    return before.privateSince
      ? `Private since ${before.privateSince}: nothing said here since reaches memory. \`/private off\` ends it.`
      : 'Not private: this chat counts for memory. `/private on` keeps what follows out.'
  const changed = dreamlane.setPrivate(chatJid, command.kind === 'on')
  if (command.kind === 'on')
    return changed
      ? 'Private from now on: nothing said here reaches dreams, cues or the search index until `/private off`.'
      : `Already private (since ${before.privateSince}).`
  return changed
    ? 'Private stretch ended: what you say from now on counts for memory again; what was said meanwhile never will.'
    : 'This chat was not private.'
}
