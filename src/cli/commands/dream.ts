// `dreamlane dream --days N [--chat jid]`: run one dream now, printing each step, then its summary.
import type { Command } from 'commander'
import { createDreamlane } from '../../create.js'
import { UsageError } from '../../errors.js'
import { EXIT } from '../exit-codes.js'
import { cliLogger, cliContext, parseCount } from '../context.js'
import { dreamProgressPrinter } from '../dream-progress.js'

export function registerDream(program: Command): void {
  program
    .command('dream')
    .description('run a dream now: backup → seed → model turn (offline engine without a key) → index → summary')
    .option('-d, --days <n>', 'window length in local days', parseCount('--days'))
    .option('-c, --chat <jid>', 'chat the summary is posted to', 'cli')
    .option('--auto', 'run as AutoDream would: through the gate cascade, with the auto window')
    .action(async (options: { days?: number; chat: string; auto?: boolean }, command: Command) => {
      const ctx = cliContext(command)
      const fallbackDays = options.auto ? ctx.config.dream.autoDays : ctx.config.dream.defaultDays
      const days = Math.min(options.days ?? fallbackDays, ctx.config.dream.maxDays)
      const lane = createDreamlane({ config: ctx.config, logger: cliLogger(), onEvent: dreamProgressPrinter((line) => ctx.progress(line)) })
      try {
        await lane.recover()
        const run = await lane.dream({ mode: options.auto ? 'auto' : 'manual', chatJid: options.chat, days })
        ctx.print(run, () => `\n${run.summary ?? ''}`)
        if (run.status === 'failed') process.exitCode = EXIT.dreamFailed
        if (run.status === 'skipped') process.exitCode = EXIT.locked
      } finally {
        await lane.close()
      }
    })
}

export function registerGate(program: Command): void {
  program
    .command('gate')
    .description('what the gate cascade says now (disabled → lock → time → sessions → triggered)')
    .option('--mode <mode>', 'auto | manual | bootstrap', 'auto')
    .action(async (options: { mode: string }, command: Command) => {
      const ctx = cliContext(command)
      if (!['auto', 'manual', 'bootstrap'].includes(options.mode)) throw new UsageError('--mode expects auto, manual or bootstrap')
      const lane = createDreamlane({ config: ctx.config, logger: cliLogger() })
      try {
        const decision = await lane.gate(options.mode as 'auto' | 'manual' | 'bootstrap')
        ctx.print(decision, () => `${decision.outcome}: ${decision.reason}`)
      } finally {
        await lane.close()
      }
    })
}
