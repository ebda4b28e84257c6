// Use cases that start dreams on their own: the first-boot bootstrap dream and the nightly AutoDream schedule.
import { AutoDreamScheduler } from '../schedule/autodream.js'
import { prepareBootstrap } from '../schedule/bootstrap.js'
import type { Timers } from '../schedule/timers.js'
import type { AppContext } from './context.js'
import { mainChatJid } from './main-chat.js'
import { triggerDream, triggerThroughGate, type TriggerResult } from './dream.js'
import { IdleTrigger } from '../schedule/idle-trigger.js'
import { SWEEP_MODES, type SweepMode } from '../dream/types.js'

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

/** This process's schedules: the nightly AutoDream and the promotion sweeps beside it. */
export interface Schedules {
  /** When AutoDream fires next. */
  readonly nextRunAt: Date | null
  /** When each sweep fires next. */
  readonly sweepsNextAt: Record<SweepMode, Date | null>
  /** Chat input arrived in `chatJid`: restarts its session-idle wait (when `autoDream.idleMinutes` is set). */
  noteChat(chatJid: string): void
  stop(): void
}

/**
 * Starts the nightly AutoDream schedule and the light, deep and REM sweep cadences. Each AutoDream firing
 * triggers an auto dream and each sweep firing a sweep run; both pass the gate cascade first, and a run the
 * gate stops is recorded `skipped` with the gate's name, as AutoDream's are.
 */
export function startAutoDream(ctx: AppContext, timers: Timers, previous?: Schedules | null): Schedules {
  previous?.stop() // a restart replaces the schedules, never doubles them
  const { config } = ctx
  const schedule = (cron: string, key: string, onFire: () => Promise<void>) =>
    new AutoDreamScheduler({ cron, key, timeZone: config.timezone, clock: ctx.clock, timers, onFire })
  const auto = schedule(config.autoDream.cron, 'autoDream.cron', async () => {
    await triggerDream(ctx, { mode: 'auto', chatJid: autoChatJid(ctx), days: config.dream.autoDays }).done
  })
  const sweeps = SWEEP_MODES.map((mode) => {
    const scheduler = schedule(config.sweeps[mode].cron, `sweeps.${mode}.cron`, async () => {
      await triggerDream(ctx, { mode, chatJid: autoChatJid(ctx), days: 1 }).done
    })
    return [mode, scheduler] as const
  })
  // Through the gate first, so a quiet spell the cascade refuses (too soon, nothing new) leaves no record.
  const idle =
    config.autoDream.idleMinutes === undefined
      ? null
      : new IdleTrigger({
          idleMs: config.autoDream.idleMinutes * 60_000,
          timers,
          onIdle: async () => {
            await triggerThroughGate(ctx, {
              mode: 'auto',
              chatJid: autoChatJid(ctx),
              days: config.dream.autoDays,
            })
          },
        })
  auto.start()
  for (const [, scheduler] of sweeps) scheduler.start()
  return {
    get nextRunAt() {
      return auto.nextRunAt
    },
    get sweepsNextAt() {
      return Object.fromEntries(sweeps.map(([mode, s]) => [mode, s.nextRunAt])) as Record<
        SweepMode,
        Date | null
      >
    },
    noteChat(chatJid: string) {
      if (!chatJid.startsWith('dream:')) idle?.noteMessage(chatJid)
    },
    stop() {
      idle?.stop()
      auto.stop()
      for (const [, scheduler] of sweeps) scheduler.stop()
    },
  }
}
