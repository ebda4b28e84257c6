// `dreamlane seed --days N`: create or refresh the window's daily notes from the messages DB, then the backlog.
import { relative } from 'node:path'
import type { Command } from 'commander'
import { systemClock } from '../../clock.js'
import { dayWindow } from '../../time/local-day.js'
import { cliContext } from '../context.js'
import { cappedDays, parseCount } from '../commander.js'

export function registerSeed(program: Command): void {
  program
    .command('seed')
    .description(
      "create or refresh daily notes (DREAM_CUES, counts, markers) for the window's days that have messages",
    )
    .option('-d, --days <n>', 'window length in local days, ending today', parseCount('--days'), 7)
    .action(async (options: { days: number }, command: Command) => {
      const ctx = await cliContext(command)
      const { seedNotes } = await import('../../app/seed.js')
      const { openMessagesDb } = await import('../../db/messages.js')
      const { openStateDb } = await import('../../db/state.js')
      const { readBacklog } = await import('../../notes/backlog.js')
      const days = cappedDays(options.days, ctx.config.dream.maxDays, ctx.progress)
      const window = dayWindow(new Date(), days, ctx.config.timezone)
      const messages = openMessagesDb(ctx.paths.messagesDb, { ...ctx.dbWait, readonly: true })
      const state = openStateDb(ctx.paths.stateDb)
      let result
      try {
        ctx.progress(`seeding ${window.firstDay} .. ${window.lastDay} (${ctx.config.timezone})`)
        const onProgress = (day: string, done: number, total: number) =>
          ctx.progress(`  [${done}/${total}] ${day}`)
        const input = {
          paths: ctx.paths,
          config: ctx.config,
          messages,
          window,
          onProgress,
          dbWait: ctx.dbWait,
        }
        result = await seedNotes(input, { clock: systemClock, state })
      } finally {
        messages.close()
        state.close()
      }
      const backlog = await readBacklog(ctx.paths, window.days)
      const rel = (file: string) => relative(ctx.paths.workspace, file)
      ctx.print(
        {
          window,
          days: result.days.map((d) => ({ ...d, path: rel(d.path) })),
          problems: result.problems,
          warnings: result.warnings,
          backlog,
        },
        () =>
          [
            ...result.days.map(
              (d) =>
                `${d.day}  ${d.outcome.padEnd(9)} ${d.state.padEnd(17)} ${String(d.messages).padStart(5)} msgs  ${rel(d.path)}`,
            ),
            result.days.length === 0 ? 'no messages in the window' : '',
            ...result.problems.map((p) => `problem: ${p.path}: ${p.reason} (left untouched)`),
            ...result.warnings.map((warning) => `warning: ${warning}`),
            `backlog: ${backlog.length} day(s) need a summary${backlog.length ? ` — ${backlog.map((b) => `${b.day} (${b.state})`).join(', ')}` : ''}`,
          ]
            .filter(Boolean)
            .join('\n'),
      )
      if (result.problems.length > 0) process.exitCode = 6
    })
}
