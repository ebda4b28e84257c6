// `dreamlane forget <what> [--yes] [--purge-backups]`, `forget --undo [id]`, `forget --list`: forget on request.
import type { Command } from 'commander'
import { UsageError } from '../../errors.js'
import { cliContext } from '../context.js'
import { withReviewDeps } from '../review-deps.js'

interface ForgetFlags {
  yes?: boolean
  purgeBackups?: boolean
  undo?: string | boolean
  list?: boolean
}

export function registerForget(program: Command): void {
  program
    .command('forget [what...]')
    .description(
      'remove what memory holds about <what> (words, a name): shows what would go; --yes removes it, with a backup first',
    )
    .option('--yes', 'remove it now (without it: only the preview)')
    .option('--purge-backups', 'with --yes: also rewrite the backups that hold it (then it cannot be undone)')
    .option('--undo [id]', 'put back a forget (default: the newest), until the next dream')
    .option('--list', 'what was forgotten, newest first')
    .action(async (words: string[], options: ForgetFlags, command: Command) => {
      const what = words.join(' ').trim()
      if (options.purgeBackups && !options.yes) throw new UsageError('--purge-backups needs --yes')
      if (!what && !options.undo && !options.list)
        throw new UsageError('say what to forget: dreamlane forget <what>')
      const ctx = await cliContext(command)
      await withReviewDeps(ctx, async (deps) => {
        if (options.list) {
          const { listForgets } = await import('../../app/forget.js')
          const forgets = listForgets(deps)
          return ctx.print(forgets, () =>
            forgets.length === 0
              ? 'Nothing was forgotten.'
              : forgets
                  .map((t) => `${t.id}  ${t.status.padEnd(6)}  "${t.what}" (${t.phrases.join(', ')})`)
                  .join('\n'),
          )
        }
        if (options.undo) {
          const { undoForget } = await import('../../app/forget-undo.js')
          const result = await undoForget(deps, typeof options.undo === 'string' ? options.undo : undefined)
          return ctx.print(result, () => result.message)
        }
        const { confirmForget, previewForget } = await import('../../app/forget.js')
        if (!options.yes) {
          const preview = await previewForget(deps, what)
          return ctx.print({ ...preview, confirmed: false }, () =>
            preview.items.length === 0
              ? `${preview.message}\nRun again with --yes to have later dreams skip it anyway.`
              : `${preview.message}\nRun again with --yes to remove it.`,
          )
        }
        const result = await confirmForget(deps, what, {
          purgeBackups: Boolean(options.purgeBackups),
          chatJid: 'cli',
        })
        ctx.print({ ...result, confirmed: true }, () => result.message)
      })
    })
}
