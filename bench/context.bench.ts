// Model context must follow the window, not the history: request sizes for a 1-year vs a 1-week workspace, same window.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fixedClock } from '../src/clock.js'
import { resolveConfig } from '../src/config/resolve.js'
import { openMessagesDb, type NewMessage } from '../src/db/messages.js'
import { openStateDb } from '../src/db/state.js'
import { createAnthropicProvider } from '../src/model/anthropic.js'
import { estimateTokens } from '../src/model/limits.js'
import { workspacePaths } from '../src/notes/paths.js'
import { seedDailyNotes } from '../src/notes/seed.js'
import { addDays, dayWindow } from '../src/time/local-day.js'
import { createToolSet } from '../src/tools/tool-set.js'
import {
  anthropicReply,
  startScriptedServer,
  type FakeStep,
  type RecordedRequest,
} from '../test/helpers/fake-anthropic.js'
import type { BenchRow } from './run.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SYSTEM = readFileSync(join(ROOT, 'skills', 'dream', 'SKILL.md'), 'utf8')
const NOW = '2026-11-21T20:00:00.000Z'
const WINDOW_DAYS = 7
const MESSAGES_PER_DAY = 40
const MEMORY_LINES = 25

interface ContextRun {
  requests: RecordedRequest[]
  messages: number
}

/** A plausible dream: orient on memory, then per day read the note, read its messages, write a summary. */
function dreamScript(days: string[]): FakeStep[] {
  const memory = ['MEMORY', 'current-state', 'recent-context', 'user', 'feedback', 'project', 'reference']
  const summary =
    'Alex worked on Atlas (Postgres chosen), planned the Porto move and a dentist visit on Friday. '.repeat(6)
  const steps: FakeStep[] = [
    anthropicReply.tools(
      memory.map((name) => ({ name: 'read_file', input: { path: `notes/memory/${name}.md` } })),
    ),
    anthropicReply.tools([{ name: 'list_files', input: { path: 'notes/daily' } }]),
  ]
  for (const day of days) {
    steps.push(
      anthropicReply.tools([
        { name: 'read_file', input: { path: `notes/daily/${day}.md` } },
        { name: 'get_messages', input: { day, limit: 50 } },
      ]),
      anthropicReply.tools([
        {
          name: 'edit_file',
          input: { path: `notes/daily/${day}.md`, old_string: '<!-- NEEDS_SUMMARY -->', new_string: summary },
        },
      ]),
    )
  }
  steps.push(
    anthropicReply.tools([
      {
        name: 'write_file',
        input: { path: 'notes/memory/recent-context.md', content: `# Recent context\n\n${summary}\n` },
      },
    ]),
    anthropicReply.text('Consolidated the window.'),
  )
  return steps
}

function messagesFor(days: string[]): NewMessage[] {
  const out: NewMessage[] = []
  for (const day of days) {
    for (let i = 0; i < MESSAGES_PER_DAY; i += 1) {
      const minute = String(i % 60).padStart(2, '0')
      const hour = String(8 + Math.floor(i / 60)).padStart(2, '0')
      out.push({
        id: `${day}-${i}`,
        chatJid: i % 3 === 0 ? 'web:side' : 'web:main',
        sender: i % 2 ? 'bot' : 'user',
        senderName: i % 2 ? 'Assistant' : 'Alex',
        content: `(${day} #${i}) We talked about Atlas, the Porto flat, the Friday dentist visit and budget item ${i * 7}.`,
        timestamp: `${day}T${hour}:${minute}:00.000Z`,
        isBotMessage: i % 2 === 1,
      })
    }
  }
  return out
}

async function runContext(historyDays: number): Promise<ContextRun> {
  const dir = mkdtempSync(join(tmpdir(), 'dreamlane-context-bench-'))
  try {
    const config = resolveConfig({ cwd: dir, env: {}, flags: { workspace: dir, timezone: 'UTC' } })
    const paths = workspacePaths(config)
    mkdirSync(paths.memory, { recursive: true })
    for (const name of [
      'MEMORY',
      'current-state',
      'recent-context',
      'user',
      'feedback',
      'project',
      'reference',
    ]) {
      const lines = Array.from(
        { length: MEMORY_LINES },
        (_, i) => `- ${name} fact ${i}: Alex prefers tea, lives in Porto.`,
      )
      writeFileSync(join(paths.memory, `${name}.md`), `# ${name}\n\n${lines.join('\n')}\n`)
    }
    const clock = fixedClock(NOW)
    const window = dayWindow(clock.now(), WINDOW_DAYS, 'UTC')
    const historyStart = addDays(window.lastDay, -(historyDays - 1))
    const days = Array.from({ length: historyDays }, (_, i) => addDays(historyStart, i))
    const messages = openMessagesDb(paths.messagesDb, { create: true })
    const all = messagesFor(days)
    messages.upsertChat('web:main', 'web:main')
    messages.upsertChat('web:side', 'web:side')
    messages.insertMessages(all)
    const state = openStateDb(paths.stateDb)
    await seedDailyNotes({ paths, config, messages, window })
    const fake = await startScriptedServer(dreamScript(window.days))
    try {
      const provider = createAnthropicProvider({ apiKey: 'bench', baseUrl: fake.url, model: 'claude-bench' })
      const tools = createToolSet({ paths, config, window, messages, state, clock, isDream: true })
      const budget = {
        maxToolCalls: 400,
        maxTotalTokens: 5_000_000,
        maxOutputTokens: 100_000,
        timeoutMs: 60_000,
      }
      const context = {
        runId: 'bench',
        mode: 'manual' as const,
        chatJid: 'web:main',
        days: window.days,
        timeZone: 'UTC',
        now: NOW,
      }
      const prompt = `dream ${WINDOW_DAYS}\nWindow: ${window.firstDay} .. ${window.lastDay} (${WINDOW_DAYS} local day(s), time zone UTC).`
      await provider.runTurn({ system: SYSTEM, prompt, context, budget }, tools, new AbortController().signal)
      return { requests: [...fake.requests], messages: all.length }
    } finally {
      await fake.close()
      messages.close()
      state.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const size = (request: RecordedRequest | undefined): number => request?.raw.length ?? 0
const describeSize = (bytes: number): string => `${bytes} B ≈ ${estimateTokens(bytes)} tok`

export async function run(): Promise<BenchRow[]> {
  const week = await runContext(WINDOW_DAYS)
  const year = await runContext(365)
  const weekTotal = week.requests.reduce((sum, request) => sum + size(request), 0)
  const yearTotal = year.requests.reduce((sum, request) => sum + size(request), 0)
  const prefix = estimateTokens(
    JSON.stringify({ system: week.requests[0]?.body.system, tools: week.requests[0]?.body.tools }).length,
  )
  const perDay = Math.round(estimateTokens(yearTotal) / WINDOW_DAYS)
  // With the moving cache breakpoint, request k re-reads request k-1 from cache and pays only for what is new.
  const sizes = year.requests.map(size)
  const cacheReadTok = estimateTokens(sizes.slice(0, -1).reduce((sum, bytes) => sum + bytes, 0))
  const freshTok = estimateTokens(sizes.at(-1) ?? 0)
  return [
    {
      name: 'context: first model request',
      subject: `1 year (${year.messages} msgs) vs 1 week (${week.messages} msgs), same ${WINDOW_DAYS}-day window`,
      baseline: describeSize(size(week.requests[0])),
      measured: describeSize(size(year.requests[0])),
      ratio: size(year.requests[0]) / size(week.requests[0]),
      target: '≤ 1.1×',
      notes: `system prompt + tool definitions ≈ ${prefix} tok of it (the cached prefix)`,
    },
    {
      name: 'context: whole scripted dream',
      subject: `${year.requests.length} requests (orient, per-day read + summarise, index), summed request sizes`,
      baseline: describeSize(weekTotal),
      measured: describeSize(yearTotal),
      ratio: yearTotal / weekTotal,
      target: '≤ 1.1×',
      notes:
        `≈ ${perDay} input tok per dream day uncached; cached ≈ ${freshTok} fresh/written + ${cacheReadTok} read ` +
        `(≈ ${Math.round((freshTok + cacheReadTok / 10) / WINDOW_DAYS)} budget tok per day); last request ${describeSize(sizes.at(-1) ?? 0)}`,
    },
  ]
}
