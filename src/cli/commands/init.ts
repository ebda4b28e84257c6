// `dreamlane init`: a workspace from notes-template (missing files only) and an empty messages DB if none.
import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import type { Command } from 'commander'
import { cliContext } from '../context.js'

export function registerInit(program: Command): void {
  program
    .command('init')
    .description(
      'create notes/ from the starter templates (never overwrites) and an empty messages DB if none exists',
    )
    .action(async (_options, command: Command) => {
      const ctx = await cliContext(command)
      const { openMessagesDb } = await import('../../db/messages.js')
      const { initWorkspace } = await import('../../notes/init-workspace.js')
      const result = await initWorkspace(ctx.paths)
      const dbCreated = !existsSync(ctx.paths.messagesDb)
      if (dbCreated) openMessagesDb(ctx.paths.messagesDb, { create: true }).close()
      const rel = (file: string) => relative(ctx.paths.workspace, file) || '.'
      ctx.print(
        {
          workspace: ctx.paths.workspace,
          created: result.created.map(rel),
          kept: result.kept.map(rel),
          messagesDbCreated: dbCreated,
        },
        () =>
          [
            `workspace: ${ctx.paths.workspace}`,
            ...result.created.map((file) => `  created ${rel(file)}`),
            result.kept.length ? `  kept ${result.kept.length} existing memory file(s) untouched` : '',
            dbCreated
              ? `  created an empty messages DB at ${ctx.paths.messagesDb}`
              : `  messages DB: ${ctx.paths.messagesDb}`,
            'next: `dreamlane sample` for demo data, then `dreamlane dream --days 7`',
          ]
            .filter(Boolean)
            .join('\n'),
      )
    })
}
