// The offline engine: a deterministic ModelProvider that dreams with the same tools a model would —
// Orient → Signal → Consolidate → Prune & Index — so everything works with no API key and no network.
import { DEFAULTS } from '../../config/defaults.js'
import { MEMORY_FILES, type MemoryFile } from '../../notes/paths.js'
import type { ToolSet } from '../../tools/types.js'
import { EMPTY_USAGE, type ModelProvider, type TurnContext, type TurnInput, type TurnResult } from '../provider.js'
import { mergeFacts } from './consolidate.js'
import { renderCurrentState, type DayStatus } from './current-state.js'
import { renderDayPage } from './day-pages.js'
import { isImportantDay } from './digest.js'
import { extractFacts, factsByMessage } from './extract.js'
import { gatherWindow } from './gather.js'
import { dayPointers, filePointers } from './index-input.js'
import { renderMemoryIndex } from './memory-index.js'
import { DAYS_DIR, MEMORY_DIR, orient, type Orientation } from './orient.js'
import { renderRecentContext } from './recent-context.js'
import { describeDream, type DreamReport } from './report.js'
import { MEMORY_SKELETONS } from './skeletons.js'
import { pendingDays, summariseDays, type DayOutcome } from './summarise-days.js'
import { ToolBudgetSpent, ToolClient, TurnAbortedSignal } from './tool-client.js'
import type { Fact, FactFile, WindowMessage } from './types.js'

export interface OfflineProviderOptions {
  /** MEMORY.md size budget in bytes. @default DEFAULTS.memory.indexBudgetBytes (6000) */
  memoryBudgetBytes?: number
}

const FACT_FILES: readonly FactFile[] = ['user.md', 'feedback.md', 'project.md', 'reference.md', 'current-state.md']

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
  facts: Fact[]
  byMessage: Map<string, Fact[]>
  byDay: Map<string, Fact[]>
}

async function gatherSignal(client: ToolClient, context: TurnContext, orientation: Orientation): Promise<Signal> {
  // Enough calls stay free for every daily note, day page and memory file write that may follow.
  const reserve = 2 * context.days.length + MEMORY_FILES.length + 3
  const pending = pendingDays(orientation.dailyNotes)
  const { byDay: messagesByDay } = await gatherWindow(client, { timeZone: context.timeZone, pending, reserve })
  const messages = context.days.flatMap((day) => messagesByDay.get(day) ?? [])
  const facts = extractFacts(messages, context.timeZone)
  return { messagesByDay, messages, facts, byMessage: factsByMessage(facts), byDay: groupByDay(facts) }
}

function dayStatuses(days: readonly string[], signal: Signal, orientation: Orientation, outcomes: readonly DayOutcome[]): Map<string, DayStatus> {
  const status = new Map<string, DayStatus>()
  for (const day of days) {
    const outcome = outcomes.find((candidate) => candidate.day === day)
    const count = signal.messagesByDay.get(day)?.length ?? 0
    const state = outcome ? outcome.after : orientation.dailyNotes.has(day) ? 'unreadable' : count > 0 ? 'no daily note' : 'no messages'
    status.set(day, { state, messages: count })
  }
  return status
}

/** Writes a days/ page for each important day of the window; returns the days that now have one. */
async function writeDayPages(client: ToolClient, context: TurnContext, signal: Signal, existing: ReadonlySet<string>) {
  const dayPages = new Set(existing)
  const written: string[] = []
  for (const day of context.days) {
    const messages = signal.messagesByDay.get(day) ?? []
    if (messages.length === 0 || !isImportantDay(signal.byDay.get(day) ?? [])) continue
    const path = `${DAYS_DIR}/${day}.md`
    const read = dayPages.has(day) ? await client.read(path) : { status: 'missing' as const }
    if (read.status === 'refused') continue
    const before = read.status === 'ok' ? read.text : null
    const input = { day, facts: signal.byDay.get(day) ?? [], messages, factsByMessage: signal.byMessage, timeZone: context.timeZone }
    const outcome = await client.writeIfChanged(path, before, renderDayPage(before, input))
    if (outcome !== 'refused') dayPages.add(day)
    if (outcome === 'written') written.push(day)
  }
  return { dayPages, written }
}

async function dream(client: ToolClient, context: TurnContext, budgetBytes: number): Promise<DreamReport> {
  const { days, timeZone } = context
  const orientation = await orient(client, days)
  const signal = await gatherSignal(client, context, orientation)
  // Consolidate: daily notes first, then facts into the memory files.
  const dayOutcomes = await summariseDays(client, { dailyNotes: orientation.dailyNotes, messagesByDay: signal.messagesByDay, facts: signal.byMessage, timeZone })
  const files = startingTexts(orientation)
  const writable = new Set(FACT_FILES.filter((name) => files.has(name)))
  const merged = mergeFacts(new Map([...writable].map((name) => [name, files.get(name)?.text ?? ''])), signal.facts.filter((fact) => writable.has(fact.file)))
  for (const [name, text] of merged.files) files.set(name, { before: files.get(name)?.before ?? null, text })
  // Prune & Index: derived blocks, sparse day pages, then the index that points at all of it.
  const update = (name: MemoryFile, render: (text: string) => string): void => {
    const file = files.get(name)
    if (file) files.set(name, { ...file, text: render(file.text) })
  }
  const status = dayStatuses(days, signal, orientation, dayOutcomes)
  update('current-state.md', (text) => renderCurrentState(text, { days, status, projectText: files.get('project.md')?.text ?? '' }))
  update('recent-context.md', (text) =>
    renderRecentContext(text, { days, messagesByDay: signal.messagesByDay, factsByDay: signal.byDay, factsByMessage: signal.byMessage }),
  )
  const pages = await writeDayPages(client, context, signal, orientation.dayPages)
  const texts = new Map([...files].map(([name, file]) => [name as string, file.text]))
  const sources = { texts, days, messagesByDay: signal.messagesByDay, factsByDay: signal.byDay, dayPages: pages.dayPages }
  const indexFile = files.get('MEMORY.md')
  const index = indexFile
    ? renderMemoryIndex(indexFile.text, { files: filePointers(sources), days: dayPointers(sources), budgetBytes })
    : null
  if (indexFile && index) files.set('MEMORY.md', { ...indexFile, text: index.text })
  return {
    days,
    messages: signal.messages.length,
    dayOutcomes,
    merges: merged.outcomes,
    touched: await writeMemoryFiles(client, files),
    pagesWritten: pages.written,
    index,
  }
}

/** Writes the memory files whose text changed, MEMORY.md last; returns the names written. */
async function writeMemoryFiles(client: ToolClient, files: MemoryTexts): Promise<string[]> {
  const touched: string[] = []
  for (const name of MEMORY_FILES) {
    const file = files.get(name)
    if (!file) continue
    if ((await client.writeIfChanged(`${MEMORY_DIR}/${name}`, file.before, file.text)) === 'written') touched.push(name)
  }
  return touched
}

async function runOfflineTurn(input: TurnInput, tools: ToolSet, signal: AbortSignal, budgetBytes: number): Promise<TurnResult> {
  const client = new ToolClient(tools, signal, input.budget.maxToolCalls)
  const finish = (stop: TurnResult['stop'], text: string, limit?: 'tool_calls'): TurnResult => {
    client.transcript.push({ kind: 'text', role: 'assistant', text })
    const result: TurnResult = { stop, text, transcript: client.transcript, usage: { ...EMPTY_USAGE } }
    return limit ? { ...result, limit } : result
  }
  try {
    const report = await dream(client, input.context, budgetBytes)
    return finish('end', describeDream(report, client.problems))
  } catch (error) {
    const progress = client.written.length > 0 ? `; already written: ${client.written.join(', ')}` : '; nothing written'
    if (error instanceof TurnAbortedSignal) return finish('aborted', `Offline dream stopped: cancelled after ${client.callCount} tool calls${progress}.`)
    if (error instanceof ToolBudgetSpent) {
      return finish('limit', `Offline dream stopped: the limit of ${input.budget.maxToolCalls} tool calls was reached${progress}.`, 'tool_calls')
    }
    throw error
  }
}

/** The offline provider: deterministic, no network, drives the tools like a model would. */
export function createOfflineProvider(options: OfflineProviderOptions = {}): ModelProvider {
  const budgetBytes = options.memoryBudgetBytes ?? DEFAULTS.memory.indexBudgetBytes
  return {
    name: 'offline',
    runTurn: (input, tools, signal) => runOfflineTurn(input, tools, signal, budgetBytes),
  }
}
