// `dreamlane runs [show <id> [--diff] | retry | apply | discard | undo <id>]`: run records and their review.
import type { Command } from 'commander'
import type { StateDb } from '../../db/state.js'
import type { RunStore } from '../../dream/runs.js'
import type { RunRecord } from '../../dream/types.js'
import { describeUsage } from '../../model/provider.js'
import { systemClock } from '../../clock.js'
import type { ReviewDeps } from '../../review/deps.js'
import { EXIT } from '../exit-codes.js'
import { cliLogger, cliContext, type CliContext } from '../context.js'
import { parseCount } from '../commander.js'
import { dreamProgressPrinter } from '../dream-progress.js'
import { withReviewDeps } from '../review-deps.js'

type Render = typeof import('../../ledger/render.js')

async function withRuns<T>(ctx: CliContext, work: (runs: RunStore, state: StateDb) => T): Promise<T> {
  const { openStateDb } = await import('../../db/state.js')
  const { RunStore } = await import('../../dream/runs.js')
  const state = openStateDb(ctx.paths.stateDb)
  try {
    return work(new RunStore(state, systemClock, ctx.config.timezone), state)
  } finally {
    state.close()
  }
}

function durationOf(run: RunRecord): string {
  if (!run.startedAt || !run.finishedAt) return '-'
  return `${((new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime()) / 1000).toFixed(1)} s`
}

function describeRun(run: RunRecord, { renderFlags, renderTotals }: Render): string {
  return [
    `run ${run.id}: ${run.status}${run.gate ? ` (gate: ${run.gate})` : ''}`,
    `  mode ${run.mode}, chat ${run.chatJid}, last ${run.days} day(s) ${run.firstDay ?? ''}..${run.lastDay ?? ''} ${run.timeZone}`,
    `  provider ${run.provider ?? '-'}${run.model ? ` (${run.model})` : ''}, created ${run.createdAt}, took ${durationOf(run)}`,
    run.reason ? `  reason: ${run.reason}` : '',
    run.errorMessage ? `  error [${run.errorCode}]: ${run.errorMessage}` : '',
    `  usage: ${describeUsage(run.usage)}`,
    `  backup: ${run.backupId ?? '-'}`,
    run.kind === 'undo' ? `  undo of: ${run.undoOf}` : '',
    run.undoneBy ? `  undone by: ${run.undoneBy}` : '',
    run.changes ? `  changes: ${renderTotals(run.changes)}` : '',
    run.holdReasons.length ? `  held because: ${run.holdReasons.join('; ')}` : '',
    run.unresolvedDays.length
      ? `  unresolved after the model pass: ${run.unresolvedDays.map((d) => `${d.day} (${d.state})`).join(', ')}`
      : '',
    ...(run.lossFlags.length
      ? ['  loss guard:', ...renderFlags(run.lossFlags).map((line) => `    ${line}`)]
      : []),
    '  steps:',
    ...run.steps.map(
      (s) =>
        `    ${s.ok ? '✓' : '✗'} ${s.name.padEnd(9)} ${String(s.durationMs).padStart(6)} ms  ${s.detail ?? ''}`,
    ),
    `  tool calls: ${run.toolCalls.length} (${run.toolCalls.filter((c) => !c.ok).length} refused)`,
    ...run.toolCalls
      .slice(0, 40)
      .map(
        (c) =>
          `    ${c.ok ? '·' : '✗'} ${c.name} ${JSON.stringify(c.input).slice(0, 90)}${c.code ? ` → ${c.code}` : ''}`,
      ),
    run.toolCalls.length > 40 ? `    … ${run.toolCalls.length - 40} more (--json for all)` : '',
    `  changed files: ${run.changedFiles.length}`,
    ...run.changedFiles.map((f) => `    ${f}`),
    '',
    run.summary ?? '',
  ]
    .filter((line) => line !== '')
    .join('\n')
}

export function registerRuns(program: Command): void {
  const runs = program
    .command('runs')
    .description('list dream runs, newest first')
    .option('-n, --limit <n>', 'how many', parseCount('--limit'), 20)
    .option('--failed', 'dead letters: only failed, degraded, lost and cancelled runs, with their errors')
    .option('--fleet <file>', "with --failed: also this workspace's failed jobs in that fleet's Redis queue")
    .option('--redis <url>', "with --fleet: the fleet's Redis (default: as `dreamlane fleet` decides)")
    .action(
      async (
        options: { limit: number; failed?: boolean; fleet?: string; redis?: string },
        command: Command,
      ) => {
        const ctx = await cliContext(command)
        const list = await withRuns(ctx, (store) =>
          store.list({
            limit: options.limit,
            status: options.failed ? ['failed', 'degraded', 'lost', 'cancelled'] : undefined,
          }),
        )
        const text = () =>
          list.length === 0
            ? 'no runs yet'
            : list
                .map(
                  (r) =>
                    `${r.id}  ${r.status.padEnd(9)} ${r.mode.padEnd(9)} ${String(r.days).padStart(3)}d  ${durationOf(r).padStart(7)}  ${r.toolCalls.length} tool calls${r.reason ? `  — ${r.reason}` : ''}`,
                )
                .join('\n')
        if (!(options.fleet && options.failed)) return ctx.print(list, text)
        const { failedFleetJobsOf } = await import('../fleet-context.js')
        const { describeFailedJob } = await import('../../fleet/status.js')
        const fleet = await failedFleetJobsOf({ ...options, fleet: options.fleet }, ctx.config.workspace)
        ctx.print({ runs: list, fleet }, () =>
          [
            text(),
            `\nfailed fleet jobs of ${fleet.workspaceId}: ${fleet.failed.length || 'none'}`,
            ...fleet.failed.map((job) => `  ${describeFailedJob(job)}`),
          ].join('\n'),
        )
      },
    )

  runs
    .command('retry <id>')
    .description("re-run that run's mode, chat and window now")
    .action(async (id: string, _options, command: Command) => {
      const ctx = await cliContext(command)
      const { createDreamlane } = await import('../../create.js')
      const dreamlane = createDreamlane({
        config: ctx.config,
        messagesDbWait: ctx.dbWait,
        logger: await cliLogger(),
        onEvent: dreamProgressPrinter((line) => ctx.progress(line)),
      })
      try {
        await dreamlane.recover()
        const run = await dreamlane.retry(id).done
        ctx.print(run, () => `retry of ${id} → ${run.id}: ${run.status}\n${run.summary ?? ''}`)
        if (run.status === 'failed') process.exitCode = EXIT.dreamFailed
      } finally {
        await dreamlane.close()
      }
    })

  runs
    .command('show <id>')
    .description('one run: steps, tool calls, usage, changed files, summary')
    .option('--diff', 'also print the change ledger: each changed file with its unified diff')
    .action(async (id: string, options: { diff?: boolean }, command: Command) => {
      const ctx = await cliContext(command)
      const { LedgerStore } = await import('../../ledger/store.js')
      const render = await import('../../ledger/render.js')
      const { run, changes } = await withRuns(ctx, (store, state) => {
        const found = store.get(id)
        return { run: found, changes: options.diff ? new LedgerStore(state).list(found.id) : null }
      })
      if (!changes) return ctx.print(run, () => describeRun(run, render))
      const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR
      ctx.print(
        { run, changes },
        () => `${describeRun(run, render)}\n\n${render.renderChanges(changes, { color })}`,
      )
    })

  runs
    .command('apply <id>')
    .description('write a run held for review, if its files are still as the dream found them')
    .action((id: string, _options, command: Command) =>
      reviewAction(command, async (deps) => (await import('../../app/review.js')).applyRun(deps, id)),
    )

  runs
    .command('discard <id>')
    .description('drop a run held for review; the notes stay as they are')
    .action((id: string, _options, command: Command) =>
      reviewAction(command, async (deps) => (await import('../../app/review.js')).discardRun(deps, id)),
    )

  runs
    .command('undo <id>')
    .description('restore the files a kept dream changed from its pre-dream backup (recorded as a run)')
    .option('--force', 'also restore files edited since the dream, after a safety backup')
    .action((id: string, options: { force?: boolean }, command: Command) =>
      reviewAction(command, async (deps) =>
        (await import('../../app/review.js')).undoDream(deps, id, { force: options.force ?? false }),
      ),
    )
}

/**
 * Runs a review action with the state DB only (no messages DB needed). A refusal (RUN_CONFLICT: the files
 * changed, exit 5; RUN_NOT_REVIEWABLE: wrong state, exit 2) goes through exit-codes.ts like every error.
 */
async function reviewAction(
  command: Command,
  work: (deps: ReviewDeps) => Promise<{ message: string }>,
): Promise<void> {
  const ctx = await cliContext(command)
  const result = await withReviewDeps(ctx, work)
  ctx.print(result, () => result.message)
}
