// A real dream world for the offline engine: sample (or given) messages, template memory files, seeded
// daily notes for the window, state.db and the real ToolSet — then one offline turn.
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { onTestFinished } from 'vitest'
import { fixedClock } from '../../../src/clock.js'
import { openMessagesDb, type MessagesDb } from '../../../src/db/messages.js'
import { openStateDb } from '../../../src/db/state.js'
import { createOfflineProvider } from '../../../src/model/offline/engine.js'
import { parseEntries } from '../../../src/model/offline/memory-file.js'
import type { WordCounts } from '../../../src/model/offline/word-weights.js'
import type { ModelProvider, TurnInput, TurnResult } from '../../../src/model/provider.js'
import { seedDailyNotes } from '../../../src/notes/seed.js'
import { generateSample } from '../../../src/sample/generate.js'
import type { SampleResult } from '../../../src/sample/types.js'
import { dayWindow, type DayWindow } from '../../../src/time/local-day.js'
import { openMessageReader } from '../../../src/tools/message-reader.js'
import { createToolSet } from '../../../src/tools/tool-set.js'
import type { ToolSet } from '../../../src/tools/types.js'
import {
  makeMessagesDb,
  makeWorkspace,
  type MessageSpec,
  type TestWorkspace,
} from '../../helpers/workspace.js'

export const NOW = '2026-11-23T09:30:00.000Z'
export const TEMPLATE_DIR = join(import.meta.dirname, '../../../notes-template')

export interface TurnOptions {
  signal?: AbortSignal
  budgetBytes?: number
  maxToolCalls?: number
  /** Wraps the real ToolSet (to watch or interrupt calls). */
  wrapTools?: (tools: ToolSet) => ToolSet
  /** The provider to run instead of the in-process offline engine (e.g. the threaded one). */
  provider?: ModelProvider
  /** Message pages read on a reader thread (openMessageReader), as a dream's are. */
  readsOnThread?: boolean
  /** Word counts of the messages before the window, as the lifecycle gives an engine that weighs words. */
  wordHistory?: WordCounts
}

export interface DreamWorld extends TestWorkspace {
  window: DayWindow
  messages: MessagesDb
  /** Seeds daily notes for `window` (default: the dream's window), as the lifecycle does before the turn. */
  seed(window?: DayWindow): Promise<void>
  /** One offline turn through a fresh real ToolSet. */
  turn(options?: TurnOptions): Promise<TurnResult>
  /** seed() then turn(). */
  dream(options?: TurnOptions): Promise<TurnResult>
  read(rel: string): string
  /** Every file under notes/, path → bytes. */
  snapshot(): Map<string, string>
}

export interface WorldOptions {
  days?: number
  timeZone?: string
  /** Files written before the first dream (paths relative to the workspace), over the template. */
  files?: Record<string, string>
  /** A messages DB file to dream over (copied), instead of the generated sample. */
  messagesDb?: string
  /** Messages instead of the generated sample. */
  messages?: MessageSpec[]
  /** Skip copying notes-template into notes/memory. */
  isBare?: boolean
  /** The dream's clock (ISO). @default NOW */
  now?: string
}

function walk(dir: string, base: string, into: Map<string, string>): void {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) walk(full, base, into)
    else into.set(relative(base, full), readFileSync(full, 'utf8'))
  }
}

export async function makeDreamWorld(
  options: WorldOptions = {},
): Promise<DreamWorld & { sample: SampleResult | null }> {
  const timeZone = options.timeZone ?? 'Europe/Lisbon'
  const ws = makeWorkspace({}, { timezone: timeZone })
  if (!options.isBare)
    cpSync(TEMPLATE_DIR, ws.paths.memory, { recursive: true, filter: (src) => !src.endsWith('README.md') })
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(ws.dir, path)), { recursive: true })
    writeFileSync(join(ws.dir, path), content)
  }
  const now = options.now ?? NOW
  const clock = fixedClock(now)
  let sample: SampleResult | null = null
  let messages: MessagesDb
  if (options.messages) {
    messages = makeMessagesDb(ws.paths, options.messages)
  } else {
    if (options.messagesDb) copyFileSync(options.messagesDb, ws.paths.messagesDb)
    else sample = await generateSample({ file: ws.paths.messagesDb, now: clock.now(), timeZone })
    messages = openMessagesDb(ws.paths.messagesDb)
    onTestFinished(() => {
      if (messages.db.open) messages.close()
    })
  }
  const state = openStateDb(ws.paths.stateDb)
  onTestFinished(() => {
    if (state.open) state.close()
  })
  const window = dayWindow(clock.now(), options.days ?? 7, timeZone)
  const input: TurnInput = {
    system: 'offline',
    prompt: `dream ${window.days.length}`,
    context: {
      runId: 'run-test',
      mode: 'manual',
      chatJid: 'web:main',
      days: window.days,
      timeZone,
      now,
    },
    budget: { maxToolCalls: 400, maxTotalTokens: 400_000, maxOutputTokens: 8_000, timeoutMs: 60_000 },
  }
  const world = {
    ...ws,
    sample,
    window,
    messages,
    async seed(days: DayWindow = window) {
      await seedDailyNotes({ paths: ws.paths, config: ws.config, messages, window: days })
    },
    async turn(run: TurnOptions = {}) {
      const reader = run.readsOnThread ? openMessageReader(messages) : undefined
      const real = createToolSet({
        paths: ws.paths,
        config: ws.config,
        window,
        messages,
        ...(reader ? { messageReader: reader } : {}),
        state,
        clock,
        isDream: true,
        // The page these engine tests were measured with (a model dream's default page is larger).
        messagePageMax: ws.config.tools.maxResults,
      })
      const tools = run.wrapTools ? run.wrapTools(real) : real
      const provider = run.provider ?? createOfflineProvider({ memoryBudgetBytes: run.budgetBytes })
      const budget = { ...input.budget, maxToolCalls: run.maxToolCalls ?? input.budget.maxToolCalls }
      try {
        const context = run.wordHistory ? { ...input.context, wordHistory: run.wordHistory } : input.context
        const signal = run.signal ?? new AbortController().signal
        return await provider.runTurn({ ...input, context, budget }, tools, signal)
      } finally {
        await reader?.close()
      }
    },
    async dream(run: TurnOptions = {}) {
      await world.seed()
      return world.turn(run)
    },
    read: (rel: string) => readFileSync(join(ws.dir, rel), 'utf8'),
    snapshot() {
      const files = new Map<string, string>()
      walk(ws.paths.notes, ws.dir, files)
      return files
    },
  }
  return world
}

/** Every keyed entry of the memory files, as `key` or `key = value`, superseded ones marked. */
export function keyedFacts(snapshot: ReadonlyMap<string, string>): string[] {
  const facts: string[] = []
  for (const [path, text] of snapshot) {
    if (!path.startsWith('notes/memory/')) continue
    for (const entry of parseEntries(text)) {
      const value = entry.value === null ? '' : ` = ${entry.value}`
      facts.push(`${entry.key}${value}${entry.supersededOn ? ' (superseded)' : ''}`)
    }
  }
  return facts.sort()
}
