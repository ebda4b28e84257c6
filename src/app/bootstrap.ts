// Use case: first boot: copy missing core memory files and queue one bootstrap dream (once across processes).
import { prepareBootstrap } from '../schedule/bootstrap.js'
import type { AppContext } from './context.js'
import { triggerDream, type TriggerResult } from './dream.js'

/** The chat scheduled and bootstrap dreams report to: the first chat there is. */
export function autoChatJid(ctx: Pick<AppContext, 'messages'>): string {
  return ctx.messages.listChats()[0]?.jid ?? 'auto'
}

export async function bootstrapWorkspace(ctx: AppContext): Promise<TriggerResult | null> {
  const { paths, state, clock, config, log } = ctx
  const decision = await prepareBootstrap({ paths, state, clock, reclaimAfterMs: config.dream.runTimeoutMs })
  if (!decision.claimed) return null
  log.info({ missing: decision.missing }, 'first boot: queueing a bootstrap dream')
  return triggerDream(ctx, { mode: 'bootstrap', chatJid: autoChatJid(ctx), days: config.dream.bootstrapDays })
}
