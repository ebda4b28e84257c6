// `dreamlane dream --days N [--chat jid] [--dry-run]`: run one dream now, printing each step, then its summary
// (or, for a dry run, the diff it would make).
import type { Command } from 'commander'
import { UsageError } from '../../errors.js'
import type { DryRunResult } from '../../review/dry-run.js'
import { EXIT } from '../exit-codes.js'
import { cliLogger, cliContext } from '../context.js'
import { cappedDays, parseCount } from '../commander.js'
import { dreamProgressPrinter } from '../dream-progress.js'
import type { RunRecord } from '../../dream/types.js'
import type { GateDecision } from '../../dream/gates.js'

export function registerDream(program: Command): void {
  program
    .command('dream')
    .description(
      'run a dream now: backup → seed → model turn (offline engine without a key) → index → summary',
    )
    .option('-d, --days <n>', 'window length in local days', parseCount('--days'))
    .option('-c, --chat <jid>', 'chat the summary is posted to', 'cli')
    .option('--auto', 'run as AutoDream would: through the gate cascade, with the auto window')
    .option(
      '--dry-run',
      'dream on a scratch copy and print the diff it would make; the workspace is not touched',
    )
    .action(
      async (
        options: { days?: number; chat: string; auto?: boolean; dryRun?: boolean },
        command: Command,
      ) => {
        const ctx = await cliContext(command)
        const { openDreamlane } = await import('../../create.js')
        const fallbackDays = options.auto ? ctx.config.dream.autoDays : ctx.config.dream.defaultDays
        const days = cappedDays(options.days ?? fallbackDays, ctx.config.dream.maxDays, ctx.progress)
        const dreamlane = openDreamlane({
          config: ctx.config,
          messagesDbWait: ctx.dbWait,
          logger: await cliLogger(),
          onEvent: dreamProgressPrinter((line) => ctx.progress(line)),
        })
        try {
          // Before any run exists: a host holding the messages DB stops us here, with nothing to clean up.
          if (!options.dryRun) dreamlane.messages.waitUntilWritable(ctx.dbWait)
          await dreamlane.recover()
          if (options.dryRun) {
            const result = await dreamlane.dryRun({
              mode: options.auto ? 'auto' : 'manual',
              chatJid: options.chat,
              days,
            })
            const render = await import('../../ledger/render.js')
            ctx.print(result, () =>
              describeDryRun(result, render, Boolean(process.stdout.isTTY) && !process.env.NO_COLOR),
            )
            if (result.run.status === 'failed') process.exitCode = EXIT.dreamFailed
            return
          }
          const trigger = dreamlane.trigger({
            mode: options.auto ? 'auto' : 'manual',
            chatJid: options.chat,
            days,
          })
          if (trigger.coalesced)
            ctx.progress(
              `joined dream ${trigger.run.id} (${trigger.run.status}, started elsewhere); waiting for it to finish…`,
            )
          // Ctrl-C or a TERM mid-dream cancels it cleanly (run closed, notes put back, lock released); a second
          // signal kills at once, and the next start reaps what is left.
          const stop = () => {
            ctx.progress('stopping: cancelling the dream (press Ctrl-C again to kill it)…')
            void dreamlane.shutdown()
          }
          if (!trigger.coalesced)
            for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop)
          const run = await trigger.done
          ctx.print(run, () => `\n${run.summary ?? `Dream ${run.id} ${run.status}.`}`)
          process.exitCode = exitCodeOf(run)
        } finally {
          await dreamlane.close()
        }
      },
    )
}

/** A gate that says "not yet" is not an error (cron stays quiet); a held lock, a failed or lost run are. */
function exitCodeOf(run: RunRecord): number {
  if (run.status === 'failed' || run.status === 'lost' || run.status === 'cancelled') return EXIT.dreamFailed
  if (run.status === 'skipped' && run.gate === 'lock') return EXIT.locked
  return EXIT.ok
}

function describeDryRun(
  result: DryRunResult,
  { renderChanges, renderFlags, renderTotals }: typeof import('../../ledger/render.js'),
  color: boolean,
): string {
  const { run } = result
  const verdict = result.wouldHold
    ? `A real run would be held for review: ${run.holdReasons.join('; ')}.`
    : run.status === 'failed'
      ? `The rehearsal failed: ${run.reason ?? 'unknown error'}.`
      : (run.changes?.files ?? 0) === 0
        ? 'A real run would change nothing: memory is already up to date for this window.'
        : 'A real run would keep these changes.'
  return [
    `\nDry run (nothing in the workspace was touched): ${run.changes ? renderTotals(run.changes) : 'no ledger'}.`,
    verdict,
    ...(run.lossFlags.length
      ? ['Loss guard:', ...renderFlags(run.lossFlags).map((line) => `  ${line}`)]
      : []),
    '',
    renderChanges(result.changes, { color }),
  ].join('\n')
}

export function registerGate(program: Command): void {
  program
    .command('gate')
    .description(
      'what the gate cascade says now (disabled → lock → time → sessions → signal → triggered), with the counts',
    )
    .option('--mode <mode>', 'auto | manual | bootstrap | light | deep | rem', 'auto')
    .action(async (options: { mode: string }, command: Command) => {
      const ctx = await cliContext(command)
      const { readGate } = await import('../../read-only.js')
      const modes = ['auto', 'manual', 'bootstrap', 'light', 'deep', 'rem'] as const
      const mode = modes.find((m) => m === options.mode)
      if (!mode) throw new UsageError('--mode expects auto, manual, bootstrap, light, deep or rem')
      const decision = await readGate({ config: ctx.config, messagesDbWait: ctx.dbWait }, mode)
      ctx.print(decision, () => describeGate(decision))
    })
}

/** `triggered: …` then one line per counted gate: sessions and signal against their thresholds. */
function describeGate(decision: GateDecision): string {
  const { sessions, signal } = decision.measures
  return [
    `${decision.outcome}: ${decision.reason}`,
    sessions
      ? `  sessions: ${sessions.count} session tree(s) since ${sessions.since ?? 'the start'} (threshold ${sessions.threshold})`
      : '',
    signal
      ? `  signal: ${signal.count} new recall event(s) since ${signal.since ?? 'the start'} (minimum ${signal.minimum})`
      : '',
  ]
    .filter(Boolean)
    .join('\n')
}
