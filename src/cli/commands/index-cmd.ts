// `dreamlane index refresh|search <query>`: the full-text index over the search roots.
import type { Command } from 'commander'
import { cliContext } from '../context.js'
import { parseCount } from '../commander.js'

export function registerIndex(program: Command): void {
  const index = program.command('index').description('the full-text search index over notes/ and skills/')

  index
    .command('refresh')
    .description('index changed files (incremental); --full re-checks every file')
    .option('--full', 'stat and hash every file instead of trusting the change journal')
    .action(async (options: { full?: boolean }, command: Command) => {
      const ctx = await cliContext(command)
      const { openStateDb } = await import('../../db/state.js')
      const { refreshIndex } = await import('../../fts/refresh.js')
      const state = openStateDb(ctx.paths.stateDb)
      try {
        const started = performance.now()
        const result = await refreshIndex({ state, paths: ctx.paths, config: ctx.config, full: options.full })
        const ms = Math.round(performance.now() - started)
        ctx.print(
          { ...result, durationMs: ms },
          () =>
            `${result.added} added, ${result.updated} updated, ${result.removed} removed, ${result.unchanged} unchanged (${result.filesRead} read) in ${ms} ms`,
        )
      } finally {
        state.close()
      }
    })

  index
    .command('search <query...>')
    .description('search notes (refreshes changed files first)')
    .option('-n, --limit <n>', 'max hits', parseCount('--limit'), 10)
    .action(async (words: string[], options: { limit: number }, command: Command) => {
      const ctx = await cliContext(command)
      const { openStateDb } = await import('../../db/state.js')
      const { refreshIndex } = await import('../../fts/refresh.js')
      const { searchIndex } = await import('../../fts/search.js')
      const state = openStateDb(ctx.paths.stateDb)
      try {
        await refreshIndex({ state, paths: ctx.paths, config: ctx.config })
        const hits = await searchIndex({
          state,
          paths: ctx.paths,
          config: ctx.config,
          query: words.join(' '),
          limit: options.limit,
        })
        ctx.print(hits, () =>
          hits.length === 0
            ? 'no matches'
            : hits.map((h) => `${h.path}:${h.line}  ${h.snippet.replace(/\s+/g, ' ')}`).join('\n'),
        )
      } finally {
        state.close()
      }
    })
}
