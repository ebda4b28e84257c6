// `dreamlane seed --days N`: create or refresh the window's daily notes from the messages DB, then the backlog.
import { relative } from 'node:path'
import type { Command } from 'commander'
import { openMessagesDb } from '../../db/messages.js'
import { openStateDb } from '../../db/state.js'
import { markDirty } from '../../fts/journal.js'
import { readBacklog } from '../../notes/backlog.js'
import { seedDailyNotes } from '../../notes/seed.js'
import { dayWindow } from '../../time/local-day.js'
import { cliContext, parseCount } from '../context.js'

export function registerSeed(program: Command): void {
  program
    .command('seed')
    .description(
      "create or refresh daily notes (DREAM_CUES, counts, markers) for the window's days that have messages",
    )
    .option('-d, --days <n>', 'window length in local days, ending today', parseCount('--days'), 7)
    .action(async (options: { days: number }, command: Command) => {
      const ctx = cliContext(command)
      const window = dayWindow(new Date(), options.days, ctx.config.timezone)
      const messages = openMessagesDb(ctx.paths.messagesDb, { ...ctx.dbWait, readonly: true })
      let result
      try {
        ctx.progress(`seeding ${window.firstDay} .. ${window.lastDay} (${ctx.config.timezone})`)
        result = await seedDailyNotes({
          paths: ctx.paths,
          config: ctx.config,
          messages,
          window,
          onProgress: (day, index, total) => ctx.progress(`  [${index + 1}/${total}] ${day}`),
        })
      } finally {
        messages.close()
      }
      const state = openStateDb(ctx.paths.stateDb)
      try {
        markDirty(state, ctx.paths.workspace, result.changed)
      } finally {
        state.close()
      }
      const backlog = await readBacklog(ctx.paths, window.days)
      const rel = (file: string) => relative(ctx.paths.workspace, file)
      ctx.print(
        {
          window,
          days: result.days.map((d) => ({ ...d, path: rel(d.path) })),
          problems: result.problems,
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
            `backlog: ${backlog.length} day(s) need a summary${backlog.length ? ` — ${backlog.map((b) => `${b.day} (${b.state})`).join(', ')}` : ''}`,
          ]
            .filter(Boolean)
            .join('\n'),
      )
      if (result.problems.length > 0) process.exitCode = 6
    })
}
