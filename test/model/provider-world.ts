// A real world for provider tests: workspace notes, a messages DB, seeded daily notes, state.db and the real ToolSet.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { fixedClock } from '../../src/clock.js'
import { openStateDb } from '../../src/db/state.js'
import type { TurnBudget, TurnInput } from '../../src/model/provider.js'
import type { RetryAttempt, Sleep } from '../../src/model/retry.js'
import { seedDailyNotes } from '../../src/notes/seed.js'
import { dayWindow } from '../../src/time/local-day.js'
import { createToolSet } from '../../src/tools/tool-set.js'
import { makeMessagesDb, makeWorkspace, type MessageSpec } from '../helpers/workspace.js'

export const NOW = '2026-11-23T12:00:00.000Z'

export const MEMORY = {
  'notes/memory/MEMORY.md': '# Memory\n\n- [user](user.md): who the user is\n',
  'notes/memory/current-state.md': '# Current state\n',
  'notes/memory/recent-context.md': '# Recent context\n',
  'notes/memory/user.md': '# User\n\n- Name: Alex\n',
  'notes/memory/feedback.md': '# Feedback\n',
  'notes/memory/project.md': '# Projects\n',
  'notes/memory/reference.md': '# Reference\n',
}

export const HISTORY: MessageSpec[] = [
  { chatJid: 'web:main', content: 'I moved to Porto last month.', timestamp: '2026-11-22T09:00:00.000Z' },
  {
    chatJid: 'web:main',
    content: 'Porto is lovely!',
    timestamp: '2026-11-22T09:00:05.000Z',
    isBotMessage: true,
  },
  { chatJid: 'web:main', content: 'We picked Postgres for Atlas.', timestamp: '2026-11-23T10:00:00.000Z' },
]

export const SYSTEM_PROMPT = readFileSync(join(import.meta.dirname, '../../skills/dream/SKILL.md'), 'utf8')

export const BUDGET: TurnBudget = {
  maxToolCalls: 50,
  maxTotalTokens: 400_000,
  maxOutputTokens: 8_000,
  timeoutMs: 10_000,
}

/** A workspace with memory files and seeded daily notes for a 3-day window ending on NOW's day. */
export async function makeProviderWorld(messages: MessageSpec[] = HISTORY) {
  const ws = makeWorkspace(MEMORY)
  const db = makeMessagesDb(ws.paths, messages)
  const state = openStateDb(ws.paths.stateDb)
  onTestFinished(() => {
    if (state.open) state.close()
  })
  const clock = fixedClock(NOW)
  const window = dayWindow(clock.now(), 3, ws.config.timezone)
  await seedDailyNotes({ paths: ws.paths, config: ws.config, messages: db, window })
  const tools = createToolSet({
    paths: ws.paths,
    config: ws.config,
    window,
    messages: db,
    state,
    clock,
    isDream: true,
  })
  const read = (rel: string): string => readFileSync(join(ws.dir, rel), 'utf8')
  return { ...ws, clock, window, tools, read }
}

export function turnInput(overrides: Partial<TurnInput> = {}): TurnInput {
  return {
    system: SYSTEM_PROMPT,
    prompt: 'dream 3\nWindow: 2026-11-21 .. 2026-11-23 (3 local day(s), time zone UTC).',
    context: {
      runId: 'run-1',
      mode: 'manual',
      chatJid: 'web:main',
      days: ['2026-11-21', '2026-11-22', '2026-11-23'],
      timeZone: 'UTC',
      now: NOW,
    },
    budget: BUDGET,
    ...overrides,
  }
}

/** A sleep that records each wait and returns at once, so retry tests never wait real seconds. */
export function recordingSleep(): { sleep: Sleep; waits: number[] } {
  const waits: number[] = []
  return {
    waits,
    sleep: async (ms) => {
      waits.push(ms)
    },
  }
}

export function recordRetries(): { onRetry: (attempt: RetryAttempt) => void; retries: RetryAttempt[] } {
  const retries: RetryAttempt[] = []
  return { retries, onRetry: (attempt) => retries.push(attempt) }
}

export function neverAborted(): AbortSignal {
  return new AbortController().signal
}
