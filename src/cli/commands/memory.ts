// `dreamlane memory promote|status`: recall candidates with their signals and gates; promotion into MEMORY.md.
import type { Command } from 'commander'
import { InvalidArgumentError, parseCount } from '../commander.js'
import { relative } from 'node:path'
import { systemClock } from '../../clock.js'
import { RECALL_PRESET_NAMES, RECALL_SIGNALS, type RecallPresetName } from '../../config/recall-names.js'
import { RECALL_GATES } from '../../recall/gates.js'
import type { ApplyResult, PromotionPlan } from '../../app/promote.js'
import type { ScoredCandidate } from '../../recall/score.js'
import { cliContext } from '../context.js'

/** Text output lists at most this many candidates; --json has them all. */
const TEXT_ROWS = 40
/** Fits the longest gate label, `stopped: min-unique-queries`. */
const GATE_WIDTH = 27

interface PromoteFlags {
  apply?: boolean
  limit?: number
  includePromoted?: boolean
  preset?: RecallPresetName
}

function parsePreset(raw: string): RecallPresetName {
  if ((RECALL_PRESET_NAMES as readonly string[]).includes(raw)) return raw as RecallPresetName
  throw new InvalidArgumentError(`--preset expects one of ${RECALL_PRESET_NAMES.join(', ')}, got "${raw}"`)
}

export function registerMemory(program: Command): void {
  const memory = program
    .command('memory')
    .description('recall tracking: promote what interactive turns keep needing into MEMORY.md')

  memory
    .command('promote')
    .description(
      'score recalled chunks and show each signal and the gate that stopped the rest; --apply appends the winners',
    )
    .option('--apply', 'append the candidates that pass every gate to MEMORY.md')
    .option('--limit <n>', 'promote at most n (default: recall.maxPromotions)', parseCount('--limit'))
    .option('--include-promoted', 'list chunks promoted earlier too')
    .option(
      '--preset <name>',
      `gate thresholds: ${RECALL_PRESET_NAMES.join(' | ')} (default: recall.preset)`,
      parsePreset,
    )
    .action(async (options: PromoteFlags, command: Command) => {
      const ctx = await cliContext(command)
      const { openStateDb } = await import('../../db/state.js')
      const { promoteMemory } = await import('../../app/promote.js')
      const state = openStateDb(ctx.paths.stateDb)
      try {
        const result = await promoteMemory(
          { state, paths: ctx.paths, config: ctx.config, clock: systemClock },
          {
            apply: Boolean(options.apply),
            includePromoted: Boolean(options.includePromoted),
            ...(options.limit !== undefined ? { limit: options.limit } : {}),
            ...(options.preset ? { preset: options.preset } : {}),
          },
        )
        const applied = result.applied
        const rel = (file: string): string => relative(ctx.paths.workspace, file)
        ctx.print({ ...result, applied: applied ? { ...applied, file: rel(applied.file) } : null }, () =>
          [formatPlan(result.plan), applied ? formatApplied(applied, rel(applied.file)) : '']
            .filter(Boolean)
            .join('\n'),
        )
      } finally {
        state.close()
      }
    })

  memory
    .command('status')
    .description('short-term candidates, how many are ready, promoted count, last promotion, store size')
    .action(async (_options, command: Command) => {
      const ctx = await cliContext(command)
      const { openStateDb } = await import('../../db/state.js')
      const { describeMemoryCounts, memoryCounts } = await import('../../recall/status.js')
      const state = openStateDb(ctx.paths.stateDb)
      try {
        const counts = memoryCounts(state, systemClock, ctx.config)
        ctx.print(counts, () => describeMemoryCounts(counts))
      } finally {
        state.close()
      }
    })
}

function formatPlan(plan: PromotionPlan): string {
  const { policy } = plan
  const header =
    `preset ${policy.preset}: score ≥ ${policy.minScore}, recalls ≥ ${policy.minRecallCount}, ` +
    `unique queries ≥ ${policy.minUniqueQueries}, last recall ≤ ${policy.maxAgeDays} days ago`
  if (plan.candidates.length === 0)
    return `${header}\nno recalled chunks yet (interactive searches record them)`
  const columns = `score  recalls queries days  freq  rel   div   rec   cons  rich  ${'gate'.padEnd(GATE_WIDTH)} chunk`
  const selected = new Set(plan.selected.map((candidate) => candidate.chunkKey))
  const rows = plan.candidates
    .slice(0, TEXT_ROWS)
    .map((candidate) => formatRow(candidate, selected.has(candidate.chunkKey)))
  const more =
    plan.candidates.length > TEXT_ROWS
      ? [`… ${plan.candidates.length - TEXT_ROWS} more (--json lists all)`]
      : []
  const stopped = RECALL_GATES.filter((gate) => plan.gates[gate] > 0).map(
    (gate) => `${gate} ${plan.gates[gate]}`,
  )
  return [
    header,
    columns,
    ...rows,
    ...more,
    `${plan.gates.pass} pass (${plan.selected.length} selected)${stopped.length ? `; stopped by ${stopped.join(', ')}` : ''}`,
  ].join('\n')
}

function formatRow(candidate: ScoredCandidate, isSelected: boolean): string {
  const signals = RECALL_SIGNALS.map((name) => candidate.signals[name].toFixed(2).padEnd(5))
  const passed = isSelected ? 'pass → promote' : 'pass (over limit)'
  const gate = candidate.gate === 'pass' ? passed : `stopped: ${candidate.gate}`
  const { startLine, endLine } = candidate
  const lines = startLine === endLine ? `${startLine}` : `${startLine}-${endLine}`
  return [
    candidate.score.toFixed(3).padEnd(6),
    String(candidate.recalls).padStart(7),
    String(candidate.uniqueQueries).padStart(7),
    String(candidate.recallDays).padStart(4),
    ' ',
    signals.join(' '),
    gate.padEnd(GATE_WIDTH),
    `${candidate.path}:${lines}`,
  ].join(' ')
}

function formatApplied(applied: ApplyResult, file: string): string {
  const skipped = applied.skipped.map((skip) => `  skipped ${skip.chunkKey}: ${skip.reason}`)
  return [
    `promoted ${applied.written.length} into ${file} (${applied.bytes} of ${applied.budgetBytes} bytes)`,
    ...applied.written.map((item) => `  ${item.entry}`),
    ...skipped,
  ].join('\n')
}
