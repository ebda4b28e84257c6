// `dreamlane sample`: writes the synthetic demo messages DB (several chats, branches, planted facts).
import type { Command } from 'commander'
import { cliContext } from '../context.js'
import { parseCount } from '../commander.js'

export function registerSample(program: Command): void {
  program
    .command('sample')
    .description(
      'write a realistic synthetic messages DB (a few weeks of chats ending today) for trying dreamlane',
    )
    .option('-d, --days <n>', 'days of history ending today', parseCount('--days', 10), 21)
    .option('--seed <n>', 'random seed (same seed → same data)', parseCount('--seed', 0), 1)
    .option('--force', 'replace an existing messages DB')
    .action(async (options: { days: number; seed: number; force?: boolean }, command: Command) => {
      const ctx = await cliContext(command)
      const { generateSample } = await import('../../sample/generate.js')
      const result = await generateSample({
        file: ctx.paths.messagesDb,
        now: new Date(),
        timeZone: ctx.config.timezone,
        days: options.days,
        seed: options.seed,
        overwrite: Boolean(options.force),
      })
      ctx.print({ file: ctx.paths.messagesDb, ...result }, () =>
        [
          `wrote ${result.messages} messages in ${result.chats} chats (${result.branches} branches), ${result.firstDay} .. ${result.lastDay}`,
          `  → ${ctx.paths.messagesDb}`,
          `  ${result.planted.length} planted facts for a dream to find; main chat: ${result.mainChat}`,
        ].join('\n'),
      )
    })
}
