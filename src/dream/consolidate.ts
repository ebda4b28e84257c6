// The consolidation pass of a dream: the model turn over file-scoped tools, the offline fallback, and what is left.
import { PrivacyStore, withSecretsWithheld } from '../db/privacy-store.js'
import { DreamlaneError } from '../errors.js'
import type { ModelProvider, TurnInput, TurnResult } from '../model/provider.js'
import { readBacklog } from '../notes/backlog.js'
import { DirSyncs } from '../notes/dir-syncs.js'
import type { DayWindow } from '../time/local-day.js'
import { createToolSet } from '../tools/tool-set.js'
import type { ToolSet } from '../tools/types.js'
import type { DreamChannel } from './channel.js'
import type { DreamDeps } from './deps.js'
import { redactedTranscript, runModelTurn } from './model-turn.js'
import { describeFallback } from './fallback-account.js'
import { describeRefusedWrites } from './refusals.js'
import { fallbackToolBudgetFor, toolBudgetFor } from './tool-budget.js'
import { offlineDayDrafter } from '../model/offline/day-drafter.js'
import { memoryHeldBytes } from '../tools/note-budget.js'
import { buildTurnInput, noteBudgetOf, type WindowSeeding } from './turn-brief.js'
import type { DreamRequest, HeldOutcome, StepName, UnresolvedDay } from './types.js'

/**
 * Times one named step into the run record. `isOk` says whether a step that returned did its work: one that
 * hands back a failure instead of throwing (the model turn, so the fallback can run) is recorded ✗ all the same.
 */
export type StepRunner = <T>(
  name: StepName,
  work: () => Promise<T>,
  detail?: (value: T) => string,
  isOk?: (value: T) => boolean,
) => Promise<T>

export interface Consolidation {
  status: HeldOutcome
  reason: string | null
  engineText: string
  /** Absolute paths of every file the model (or the fallback) wrote. */
  written: string[]
  /** Window days whose daily note still needs work after the pass (model and fallback both done). */
  unresolved: UnresolvedDay[]
}

/** The model turn over file-scoped tools, and the offline engine when the turn failed or did no work. */
export async function consolidate(
  runId: string,
  request: DreamRequest,
  window: DayWindow,
  seeding: WindowSeeding,
  channel: DreamChannel,
  step: StepRunner,
  deps: DreamDeps,
): Promise<Consolidation> {
  // The turn's notes are each synced before their rename; their folders once, when the turn ends, however it ends,
  // long before the run can be reported finished (until then a crash leaves the run lost, its backup kept).
  const dirSyncs = new DirSyncs()
  let pass: Omit<Consolidation, 'unresolved'>
  try {
    // The memory files' share of the budget is of all they hold, so what they hold now is read first.
    const held = { ...seeding, memoryHeldBytes: await memoryHeldBytes(deps.paths.memory) }
    pass = await modelPass(runId, request, window, held, channel, step, deps, dirSyncs)
  } finally {
    await dirSyncs.flush()
  }
  // What is left undone is reported after every pass, so a day the model skipped is named, not silently carried.
  const unresolved = (await readBacklog(deps.paths, window.days)).map(({ day, state }) => ({ day, state }))
  deps.runs.update(runId, { unresolvedDays: unresolved })
  if (unresolved.length > 0)
    deps.log.warn({ runId, unresolved }, `${unresolved.length} day(s) still unresolved after the model pass`)
  return { ...pass, unresolved }
}

async function modelPass(
  runId: string,
  request: DreamRequest,
  window: DayWindow,
  seeding: WindowSeeding,
  channel: DreamChannel,
  step: StepRunner,
  deps: DreamDeps,
  dirSyncs: DirSyncs,
): Promise<Omit<Consolidation, 'unresolved'>> {
  // Read once per dream: what the message tools must not show and the write tools must not write.
  const privacy = withSecretsWithheld(
    new PrivacyStore(deps.state).rules(deps.config.memory.excludeChats),
    deps.config,
  )
  // One tool set per engine: the fallback gets its own call budget, not what the model left of it.
  const makeTools = (provider: ModelProvider, maxCalls: number) =>
    createToolSet(
      {
        privacy,
        paths: deps.paths,
        config: deps.config,
        window,
        messages: deps.messages,
        ...(deps.messageReader ? { messageReader: deps.messageReader } : {}),
        state: deps.state,
        clock: deps.clock,
        isDream: true,
        dirSyncs,
        dayDrafter: offlineDayDrafter(window.timeZone),
      },
      {
        maxCalls,
        noteBudget: noteBudgetOf(seeding),
        // An engine with no context window to fill (the offline one) reads messages in bulk.
        ...(provider.messagePageMax === undefined ? {} : { messagePageMax: provider.messagePageMax }),
        beforeCall: () => deps.lanes.yieldToInteractive(),
        onCall: (record) => {
          deps.onEvent?.({ type: 'tool', runId, name: record.name, ok: record.ok })
          channel.append({ kind: 'tool_call', name: record.name, input: record.input }, deps.clock.now())
        },
      },
    )
  const tools = makeTools(deps.provider, toolBudgetFor(deps.config, window))
  const turnInput = await withWordHistory(
    buildTurnInput(runId, request, window, seeding, deps),
    deps.provider,
    window,
    deps,
  )
  const turn = await step(
    'model',
    () => runModelTurn(turnInput, tools, deps, runId),
    (outcome) => outcome.describe,
    (outcome) => outcome.failure === null,
  )

  const needsFallback = turn.failure ?? (await missingWork(turn.result, tools, window, deps))
  if (!needsFallback) {
    const refused = describeRefusedWrites(tools.calls())
    return {
      status: refused ? 'degraded' : 'succeeded',
      reason: refused,
      engineText: turn.result.text,
      written: [...tools.changedFiles()],
    }
  }
  if (deps.provider === deps.fallback) {
    const refused = describeRefusedWrites(tools.calls())
    throw new DreamlaneError('PROVIDER_FAILED', refused ? `${needsFallback}; ${refused}` : needsFallback)
  }
  const fallbackBudget = fallbackToolBudgetFor(deps.config, window)
  const fallbackTools = makeTools(deps.fallback, fallbackBudget)
  const fallbackInput = { ...turnInput, budget: { ...turnInput.budget, maxToolCalls: fallbackBudget } }
  let rescue: TurnResult | null = null
  try {
    rescue = await step(
      'fallback',
      async () =>
        deps.fallback.runTurn(
          await withWordHistory(fallbackInput, deps.fallback, window, deps),
          fallbackTools,
          abortSignalFor(deps),
        ),
      (r) => `${r.stop}, ${fallbackTools.calls().length} of ${fallbackBudget} tool call(s)`,
    )
  } finally {
    // Kept however the fallback ends, so a cancelled or failed one still shows its calls.
    deps.runs.update(runId, {
      toolCalls: [...tools.calls(), ...fallbackTools.calls()],
      transcript: [
        ...redactedTranscript(tools, turn.result.transcript),
        ...redactedTranscript(fallbackTools, rescue?.transcript ?? []),
      ],
    })
  }
  if (rescue.stop === 'aborted' && deps.signal?.aborted)
    throw new DreamlaneError('PROVIDER_FAILED', 'dream cancelled')
  const account = describeFallback(deps.fallback.name, rescue, fallbackTools, fallbackBudget)
  const refused = describeRefusedWrites(fallbackTools.calls())
  return {
    status: 'degraded',
    reason: `${needsFallback}; ${account} (retryable)${refused ? `; ${refused}` : ''}`,
    engineText: rescue.text,
    written: [...tools.changedFiles(), ...fallbackTools.changedFiles()],
  }
}

/** The turn input with the word counts of the messages before the window, for a provider that weighs words. */
async function withWordHistory(
  input: TurnInput,
  provider: ModelProvider,
  window: DayWindow,
  deps: DreamDeps,
): Promise<TurnInput> {
  if (!provider.weighsWords || input.context.wordHistory) return input
  // Loaded only here: a dream with a model never needs it, and a CLI command that never dreams never loads it.
  const { wordHistoryBefore } = await import('../model/offline/word-history.js')
  return {
    ...input,
    context: { ...input.context, wordHistory: await wordHistoryBefore(deps.messages, window.start) },
  }
}

function abortSignalFor(deps: DreamDeps): AbortSignal {
  return deps.signal ?? new AbortController().signal
}

/** A turn that wrote nothing while daily notes still need summaries did not do the work. */
async function missingWork(
  result: TurnResult,
  tools: ToolSet,
  window: DayWindow,
  deps: DreamDeps,
): Promise<string | null> {
  if (tools.changedFiles().length > 0) return null
  const backlog = await readBacklog(deps.paths, window.days)
  if (backlog.length === 0) return null
  return `the model turn ended (${result.stop}) without writing while ${backlog.length} daily note(s) still need a summary`
}
