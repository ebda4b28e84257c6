// `dreamlane dream --days N [--chat jid]`: run one dream now, printing each step, then its summary.
import type { Command } from 'commander'
import { createDreamlane } from '../../create.js'
import { EXIT } from '../exit-codes.js'
import { cliContext, parseCount } from '../context.js'
import { dreamProgressPrinter } from '../dream-progress.js'

export function registerDream(program: Command): void {
  program
    .command('dream')
    .description('run a dream now: backup → seed → model turn (offline engine without a key) → index → summary')
    .option('-d, --days <n>', 'window length in local days', parseCount('--days'))
    .option('-c, --chat <jid>', 'chat the summary is posted to', 'cli')
    .action(async (options: { days?: number; chat: string }, command: Command) => {
      const ctx = cliContext(command)
      const days = Math.min(options.days ?? ctx.config.dream.defaultDays, ctx.config.dream.maxDays)
      const lane = createDreamlane({ config: ctx.config, onEvent: dreamProgressPrinter((line) => ctx.progress(line)) })
      try {
        await lane.recover()
        const run = await lane.dream({ mode: 'manual', chatJid: options.chat, days })
        ctx.print(run, () => `\n${run.summary ?? ''}`)
        if (run.status === 'failed') process.exitCode = EXIT.dreamFailed
        if (run.status === 'skipped') process.exitCode = EXIT.locked
      } finally {
        await lane.close()
      }
    })
}
