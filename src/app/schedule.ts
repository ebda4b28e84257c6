// Use cases that start dreams on their own: the first-boot bootstrap dream and the nightly AutoDream schedule.
import { AutoDreamScheduler } from '../schedule/autodream.js'
import { prepareBootstrap } from '../schedule/bootstrap.js'
import type { Timers } from '../schedule/timers.js'
import type { AppContext } from './context.js'
import { mainChatJid } from './main-chat.js'
import { triggerDream, type TriggerResult } from './dream.js'

/** The chat scheduled and bootstrap dreams report to: the main chat, never a branch. */
export function autoChatJid(ctx: Pick<AppContext, 'messages' | 'clock'>): string {
  return mainChatJid(ctx.messages, ctx.clock)
}

/** First boot: copies missing core memory files and queues one bootstrap dream (once across processes). */
export async function bootstrapWorkspace(ctx: AppContext): Promise<TriggerResult | null> {
  const { paths, state, clock, config, log } = ctx
  const decision = await prepareBootstrap({ paths, state, clock, reclaimAfterMs: config.dream.runTimeoutMs })
  if (!decision.claimed) return null
  log.info({ missing: decision.missing }, 'first boot: queueing a bootstrap dream')
  return triggerDream(ctx, { mode: 'bootstrap', chatJid: autoChatJid(ctx), days: config.dream.bootstrapDays })
}

/** Starts the nightly AutoDream schedule; each firing triggers an auto dream, which passes the gate first. */
export function startAutoDream(ctx: AppContext, timers: Timers): AutoDreamScheduler {
  const { config } = ctx
  const scheduler = new AutoDreamScheduler({
    cron: config.autoDream.cron,
    timeZone: config.timezone,
    clock: ctx.clock,
    timers,
    onFire: async () => {
      await triggerDream(ctx, { mode: 'auto', chatJid: autoChatJid(ctx), days: config.dream.autoDays }).done
    },
  })
  scheduler.start()
  return scheduler
}
