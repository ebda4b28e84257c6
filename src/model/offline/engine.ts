// The offline engine: a deterministic ModelProvider that dreams with the same tools a model would —
// Orient → Signal → Consolidate → Prune & Index — so everything works with no API key and no network.
import { DEFAULTS } from '../../config/defaults.js'
import { refreshFactFile } from '../../notes/fact-archive.js'
import { FRESHNESS_FILES } from '../../notes/lasting-facts.js'
import type { FreshnessParams } from '../../notes/fact-freshness.js'
import { MEMORY_FILES, type MemoryFile } from '../../notes/paths.js'
import { localDayOf } from '../../time/local-day.js'
import type { ToolSet } from '../../tools/types.js'
import {
  EMPTY_USAGE,
  type ModelProvider,
  type TurnContext,
  type TurnInput,
  type TurnResult,
} from '../provider.js'
import { mergeFacts } from './consolidate.js'
import { dueStarts } from './job-start.js'
import { dueEnding } from './last-day.js'
import { renderCurrentState, type DayStatus } from './current-state.js'
import {
  expectedUserMessages,
  prepareFactExtraction,
  type FactExtraction,
  type FactExtractor,
} from './facts-of-window.js'
import { gatherWindow, PAGE_SIZE } from './gather.js'
import { dayPointers, filePointers, type IndexSources } from './index-input.js'
import { renderMemoryIndex, type IndexResult } from './memory-index.js'
import { warmDayTopics } from './day-topics.js'
import { yieldToLoop } from './yield.js'
import { MEMORY_DIR, orient, type Orientation } from './orient.js'
import { RECENT_DAYS, renderRecentContext } from './recent-context.js'
import { describeDream, type DreamReport } from './report.js'
import { MEMORY_SKELETONS } from './skeletons.js'
import { pendingDays, prepareSummaries, type DaySummariser, type DayOutcome } from './summarise-days.js'
import { ToolBudgetSpent, ToolClient, TurnAbortedSignal } from './tool-client.js'
import type { Fact, FactFile, MergeOutcome, WindowMessage } from './types.js'
import type { WordWeights } from './word-weights.js'

export interface OfflineProviderOptions {
  /** MEMORY.md size budget in bytes. @default DEFAULTS.memory.indexBudgetBytes (6000) */
  memoryBudgetBytes?: number
  /** How keyed facts fade and move to `## Archive`. @default DEFAULTS.memory.freshness */
  freshness?: FreshnessParams
  /** Messages to summarise from which days are summarised on a thread of their own too. @default 50,000 */
  threadedSummariesMin?: number
}

interface EngineSettings {
  budgetBytes: number
  freshness: FreshnessParams
  threadedSummariesMin?: number
}

// Facts merged per step between yields; each step parses a file again only after a fact changed it.
const MERGE_SLICE = 200

const FACT_FILES: readonly FactFile[] = [
  'user.md',
  'feedback.md',
  'project.md',
  'reference.md',
  'current-state.md',
]

/** Each memory file's text as read (null when missing) and as it will be written. */
type MemoryTexts = Map<MemoryFile, { before: string | null; text: string }>

function groupByDay(facts: readonly Fact[]): Map<string, Fact[]> {
  const byDay = new Map<string, Fact[]>()
  for (const fact of facts) {
    const list = byDay.get(fact.day) ?? []
    list.push(fact)
    byDay.set(fact.day, list)
  }
  return byDay
}

/** Starting texts of the memory files: what is on disk, the skeleton when missing, absent when unreadable. */
function startingTexts(orientation: Orientation): MemoryTexts {
  const texts: MemoryTexts = new Map()
  for (const name of MEMORY_FILES) {
    const read = orientation.memory.get(name)
    if (read?.status === 'ok') texts.set(name, { before: read.text, text: read.text })
    else if (read?.status === 'missing') texts.set(name, { before: null, text: MEMORY_SKELETONS[name] })
  }
  return texts
}

interface Signal {
  messagesByDay: Map<string, WindowMessage[]>
  messages: WindowMessage[]
  /** Word weights over every gathered message. */
  weights: WordWeights
  /** The window's facts, being extracted (partly in a thread of their own for a large window). */
  facts: FactExtraction
}

/** What runs beside the reading of a window: its fact extraction and its day summaries. */
interface WindowWork {
  extractor: FactExtractor
  summaries: DaySummariser
}

async function gatherSignal(
  client: ToolClient,
  context: TurnContext,
  orientation: Orientation,
  work: WindowWork,
): Promise<Signal> {
  // Enough calls stay free for every write that may follow: one per existing daily note (its summary) and the
  // memory files. Counting every window day would starve long windows.
  const reserve = orientation.dailyNotes.size + MEMORY_FILES.length + 3
  const pending = pendingDays(orientation.dailyNotes)
  const plan = { timeZone: context.timeZone, pending, reserve, history: context.wordHistory }
  const gathered = await gatherWindow(client, plan, (day, messages) => work.summaries.offer(day, messages))
  const messages = context.days.flatMap((day) => gathered.byDay.get(day) ?? [])
  // When the days are summarised on a thread too, the engine's own thread has half a window of days to summarise:
  // the fact thread takes the whole extraction rather than leave a part to the end of the turn.
  const facts = work.extractor.start(messages, work.summaries.usesThreadFor(messages.length) ? 1 : undefined)
  return { messagesByDay: gathered.byDay, messages, weights: gathered.weights, facts }
}

function stateOf(
  day: string,
  count: number,
  orientation: Orientation,
  outcomes: readonly DayOutcome[],
): string {
  const outcome = outcomes.find((candidate) => candidate.day === day)
  if (outcome) return outcome.after
  if (orientation.dailyNotes.has(day)) return 'unreadable'
  return count > 0 ? 'no daily note' : 'no messages'
}

function dayStatuses(
  days: readonly string[],
  signal: Pick<Signal, 'messagesByDay'>,
  orientation: Orientation,
  outcomes: readonly DayOutcome[],
): Map<string, DayStatus> {
  const status = new Map<string, DayStatus>()
  for (const day of days) {
    const count = signal.messagesByDay.get(day)?.length ?? 0
    status.set(day, { state: stateOf(day, count, orientation, outcomes), messages: count })
  }
  return status
}

/** Merges the window's facts into the readable fact files; unreadable files are left alone. */
async function consolidateFacts(files: MemoryTexts, facts: readonly Fact[]): Promise<MergeOutcome[]> {
  const writable = new Set(FACT_FILES.filter((name) => files.has(name)))
  let texts = new Map([...writable].map((name) => [name, files.get(name)?.text ?? '']))
  const outcomes: MergeOutcome[] = []
  const mergeable = facts.filter((fact) => writable.has(fact.file))
  // Merged a slice at a time, so a window with thousands of facts never holds the event loop for long.
  for (let at = 0; at < mergeable.length; at += MERGE_SLICE) {
    const merged = mergeFacts(texts, mergeable.slice(at, at + MERGE_SLICE))
    texts = merged.files
    outcomes.push(...merged.outcomes)
    await yieldToLoop()
  }
  for (const [name, text] of texts) files.set(name, { before: files.get(name)?.before ?? null, text })
  return outcomes
}

/** Rebuilds MEMORY.md's index from the files as they will be written and the day pages that exist. */
function indexMemory(
  files: MemoryTexts,
  sources: Omit<IndexSources, 'texts'>,
  budgetBytes: number,
): IndexResult | null {
  const indexFile = files.get('MEMORY.md')
  if (!indexFile) return null
  const texts = new Map([...files].map(([name, file]) => [name as string, file.text]))
  const input = {
    files: filePointers({ ...sources, texts }),
    days: dayPointers({ ...sources, texts }),
    budgetBytes,
  }
  const index = renderMemoryIndex(indexFile.text, input)
  files.set('MEMORY.md', { ...indexFile, text: index.text })
  return index
}

async function dream(
  client: ToolClient,
  context: TurnContext,
  settings: EngineSettings,
): Promise<DreamReport> {
  const { days, timeZone } = context
  const orientation = await orient(client, days)
  // A large window's extraction thread starts now, loading its libraries while the messages are read.
  const expected = expectedUserMessages(orientation.dailyNotes.values())
  const extractor = prepareFactExtraction(expected, timeZone, client.signal)
  // A long window's summary thread starts now too, drafting each day as soon as its messages are read.
  const summaries = prepareSummaries(client, {
    dailyNotes: orientation.dailyNotes,
    timeZone,
    ...(settings.threadedSummariesMin !== undefined ? { threadedMin: settings.threadedSummariesMin } : {}),
  })
  try {
    return await dreamOn(client, context, settings, orientation, { extractor, summaries })
  } finally {
    extractor.stop()
    summaries.stop()
  }
}

async function dreamOn(
  client: ToolClient,
  context: TurnContext,
  settings: EngineSettings,
  orientation: Orientation,
  work: WindowWork,
): Promise<DreamReport> {
  const { days, timeZone } = context
  const signal = await gatherSignal(client, context, orientation, work)
  // Consolidate: daily notes first, then facts into the memory files.
  const { messagesByDay, weights } = signal
  const dayOutcomes = await work.summaries.finish(messagesByDay, weights)
  // A large window's facts were partly extracted in their own thread while the summaries were written.
  const windowFacts = await signal.facts.finish().catch((error: unknown) => {
    throw client.signal.aborted ? new TurnAbortedSignal() : error
  })
  const factsByDay = groupByDay(windowFacts)
  const files = startingTexts(orientation)
  // Open threads are what is going on now: listed fresh from the window in current-state's block, not kept
  // as keyed entries that nothing would ever close.
  const threads = windowFacts.filter((fact) => fact.kind === 'thread')
  const merges = await consolidateFacts(
    files,
    windowFacts.filter((fact) => fact.kind !== 'thread'),
  )
  const today = localDayOf(new Date(context.now), timeZone)
  // A first day that has come starts the job, and a last day that has passed ends it, whichever window said them.
  const projectOf = (): string => files.get('project.md')?.text ?? ''
  const userOf = (): string => files.get('user.md')?.text ?? ''
  merges.push(...(await consolidateFacts(files, dueStarts(projectOf(), userOf(), today, timeZone))))
  const ending = dueEnding(projectOf(), userOf(), today)
  if (ending) merges.push(...(await consolidateFacts(files, [ending])))
  // Prune & Index: derived blocks, sparse day pages, then the index that points at all of it.
  const update = (name: MemoryFile, render: (text: string) => string): void => {
    const file = files.get(name)
    if (file) files.set(name, { ...file, text: render(file.text) })
  }
  // Freshness as of today: facts ordered by importance, faded ones archived, restated ones back out.
  for (const name of FRESHNESS_FILES)
    update(name, (text) => refreshFactFile(text, today, settings.freshness, name))
  const status = dayStatuses(days, signal, orientation, dayOutcomes)
  const projectText = files.get('project.md')?.text ?? ''
  update('current-state.md', (text) => renderCurrentState(text, { days, status, projectText, threads }))
  const roots = new Set([...messagesByDay.values()].flat().map((message) => message.root))
  // The last days' topics feed both recent-context and the index: worked out here, a day per event-loop turn.
  for (const day of days.filter((day) => (messagesByDay.get(day)?.length ?? 0) > 0).slice(-RECENT_DAYS)) {
    await warmDayTopics(messagesByDay.get(day) ?? [], weights, yieldToLoop)
  }
  const recent = { days, messagesByDay, factsByDay, weights, isOneConversation: roots.size <= 1 }
  update('recent-context.md', (text) => renderRecentContext(text, recent))
  // Day pages are no longer written (daily notes hold the summaries); pages from earlier versions stay linked.
  const indexSources = {
    days,
    messagesByDay,
    factsByDay,
    dayPages: orientation.dayPages,
    weights,
    today,
    freshness: settings.freshness,
  }
  const index = indexMemory(files, indexSources, settings.budgetBytes)
  const touched = await writeMemoryFiles(client, files)
  const messages = signal.messages.length
  return { days, messages, dayOutcomes, merges, touched, pagesWritten: [], index }
}

/**
 * Writes the memory files whose text changed; returns the names written. The writes are begun together, so their
 * disk syncs overlap (one journal commit, not seven in a row), and their outcomes taken in MEMORY_FILES order.
 */
async function writeMemoryFiles(client: ToolClient, files: MemoryTexts): Promise<string[]> {
  const pending = MEMORY_FILES.flatMap((name) => {
    const file = files.get(name)
    return file ? [{ name, write: client.beginWrite(`${MEMORY_DIR}/${name}`, file.before, file.text) }] : []
  })
  const touched: string[] = []
  for (const { name, write } of pending) if ((await write.finish()) === 'written') touched.push(name)
  return touched
}

async function runOfflineTurn(
  input: TurnInput,
  tools: ToolSet,
  signal: AbortSignal,
  settings: EngineSettings,
): Promise<TurnResult> {
  const client = new ToolClient(tools, signal, input.budget.maxToolCalls)
  const finish = (stop: TurnResult['stop'], text: string, limit?: 'tool_calls'): TurnResult => {
    client.transcript.push({ kind: 'text', role: 'assistant', text })
    const result: TurnResult = { stop, text, transcript: client.transcript, usage: { ...EMPTY_USAGE } }
    return limit ? { ...result, limit } : result
  }
  try {
    const report = await dream(client, input.context, settings)
    return finish('end', describeDream(report, client.problems))
  } catch (error) {
    const written =
      client.written.length > 0 ? `already written: ${client.written.join(', ')}` : 'nothing written'
    if (error instanceof TurnAbortedSignal) {
      return finish(
        'aborted',
        `Offline dream stopped: cancelled after ${client.callCount} tool calls; ${written}.`,
      )
    }
    if (error instanceof ToolBudgetSpent) {
      const why = `the limit of ${input.budget.maxToolCalls} tool calls was reached`
      return finish('limit', `Offline dream stopped: ${why}; ${written}.`, 'tool_calls')
    }
    throw error
  }
}

/** The offline provider: deterministic, no network, drives the tools like a model would. */
export function createOfflineProvider(options: OfflineProviderOptions = {}): ModelProvider {
  const settings: EngineSettings = {
    budgetBytes: options.memoryBudgetBytes ?? DEFAULTS.memory.indexBudgetBytes,
    freshness: options.freshness ?? DEFAULTS.memory.freshness,
    ...(options.threadedSummariesMin !== undefined
      ? { threadedSummariesMin: options.threadedSummariesMin }
      : {}),
  }
  return {
    name: 'offline',
    messagePageMax: PAGE_SIZE,
    weighsWords: true,
    runTurn: (input, tools, signal) => runOfflineTurn(input, tools, signal, settings),
  }
}
