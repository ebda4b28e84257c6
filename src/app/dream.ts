// Use cases that start dreams: trigger (or join) one, trigger through the gate first, retry a run, ask the gate.
import { checkGates, type GateDecision, type GateDeps } from '../dream/gates.js'
import type { TriggerResult } from '../dream/queue.js'
import type { DreamMode, DreamRequest, GateOutcome, RunRecord } from '../dream/types.js'
import { DreamlaneError } from '../errors.js'
import type { AppContext } from './context.js'

export type { GateDecision, TriggerResult }

/** Queues a dream (or joins the one queued or running) and returns at once. */
export function triggerDream(ctx: AppContext, request: DreamRequest): TriggerResult {
  return ctx.dreams.trigger(request)
}

/** What the gate cascade says right now for `mode`. */
export function checkGate(ctx: GateDeps, mode: DreamMode): Promise<GateDecision> {
  return checkGates(mode, ctx)
}

/** Re-runs run `id` with its own mode, chat and window. */
export function retryRun(ctx: AppContext, id: string): TriggerResult {
  const original = ctx.runs.get(id)
  if (original.kind === 'undo')
    throw new DreamlaneError('RUN_NOT_REVIEWABLE', `${id} is an undo, not a dream; there is nothing to retry`)
  return triggerDream(ctx, {
    mode: original.mode,
    chatJid: original.chatJid,
    days: original.days,
    endDay: original.lastDay ?? undefined,
    retryOf: original.id,
  })
}

export interface GatedTrigger {
  mode: Exclude<DreamMode, 'bootstrap'>
  chatJid: string
  days: number
}

export interface GatedTriggerOutcome {
  /** True when a run was queued or joined; false when the gate said no and nothing was written. */
  accepted: boolean
  gate: GateOutcome
  reason: string
  run: RunRecord | null
  coalesced: boolean
}

/**
 * Asks the gate first, so a refused trigger leaves no run record behind. A dream already queued or running
 * in this workspace is joined (the gate says `lock`, the trigger coalesces) rather than refused.
 */
export async function triggerThroughGate(ctx: AppContext, input: GatedTrigger): Promise<GatedTriggerOutcome> {
  const decision = await checkGate(ctx, input.mode)
  const active = ctx.runs.list({ status: ['queued', 'running'], limit: 1 })[0]
  if (decision.outcome !== 'triggered' && !(decision.outcome === 'lock' && active)) {
    return { accepted: false, gate: decision.outcome, reason: decision.reason, run: null, coalesced: false }
  }
  const result = triggerDream(ctx, { mode: input.mode, chatJid: input.chatJid, days: input.days })
  const reason = result.coalesced
    ? `joined ${result.run.id}, which is already ${result.run.status}`
    : decision.reason
  return { accepted: true, gate: decision.outcome, reason, run: result.run, coalesced: result.coalesced }
}
