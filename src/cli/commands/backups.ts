// `dreamlane backups list|create|restore <id>`: the pre-dream zip archives.
import type { Command } from 'commander'
import type { StartedPackThread } from '../../backup/pack-thread.js'
import { systemClock } from '../../clock.js'
import { cliContext, cliContextFor, globalOptions, type GlobalOptions } from '../context.js'
import { printLine } from '../std-streams.js'

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

export function registerBackups(program: Command): void {
  const backups = program
    .command('backups')
    .description('list, create and restore zip backups of notes/daily and notes/memory')

  backups
    .command('list', { isDefault: true })
    .description('newest first')
    .action(async (_options, command: Command) => {
      const ctx = await cliContext(command)
      const { listBackups } = await import('../../backup/list.js')
      const list = await listBackups(ctx.paths)
      ctx.print(list, () =>
        list.length === 0
          ? `no backups yet in ${ctx.paths.backups}`
          : list.map((b) => `${b.id}  ${b.mode.padEnd(9)} ${b.chatJid.padEnd(24)} ${kb(b.bytes)}`).join('\n'),
      )
    })

  backups
    .command('create')
    .description('back up the notes now')
    .action((_options, command: Command) => runBackupsCreate(globalOptions(command)))

  backups
    .command('restore <id>')
    .description(
      'restore notes from a backup (takes a safety backup first and verifies every checksum); refused while a dream runs',
    )
    .action(async (id: string, _options, command: Command) => {
      const ctx = await cliContext(command)
      ctx.progress(`verifying ${id}…`)
      const { openStateDb } = await import('../../db/state.js')
      const { restoreFromBackup } = await import('../../app/restore.js')
      const state = openStateDb(ctx.paths.stateDb)
      let result
      try {
        // Under the workspace lock, like the API: a dream in progress → LOCK_HELD, exit 5, nothing touched.
        result = await restoreFromBackup(
          { paths: ctx.paths, config: ctx.config, clock: systemClock, state },
          id,
        )
      } finally {
        state.close()
      }
      ctx.print(
        { restored: result.restored, removed: result.removed, safetyBackup: result.safetyBackup.id },
        () =>
          [
            `restored ${result.restored.length} file(s) from ${id}`,
            result.removed.length
              ? `removed ${result.removed.length} file(s) that were not in the backup`
              : '',
            `safety backup of the previous state: ${result.safetyBackup.id}`,
          ]
            .filter(Boolean)
            .join('\n'),
      )
    })
}

/**
 * `backups create`, also run directly (without commander) when its arguments are only global options. Its result
 * is its only output on stdout, written to the file descriptor (`printLine`).
 */
export async function runBackupsCreate(options: GlobalOptions, started?: StartedPackThread): Promise<void> {
  // Started first (by main.ts on the plain path), the pack thread is up by the time the backup's modules have loaded.
  const thread = started ?? (await import('../../backup/pack-thread.js')).startPackThread()
  const ctx = await cliContextFor(options, {}, printLine)
  ctx.progress('writing backup…')
  const bundle = import('../backup-create-deps.js')
  // The process ends with the backup: no optimised code, from when nothing is left to load from Node's code cache.
  void import('../short-run.js').then((run) => run.skipOptimisingCompilersOnce([bundle, thread.ready]))
  const { createBackup } = await bundle
  const info = await createBackup({
    paths: ctx.paths,
    mode: 'manual',
    chatJid: 'cli',
    clock: systemClock,
    keep: ctx.config.backups.keep,
  })
  const { manifest: _manifest, ...summary } = info
  ctx.print(summary, () => `${info.id}: ${info.fileCount} file(s), ${kb(info.bytes)} → ${info.file}`)
}
