// The offline fallback after a model that spent its tool-call budget: a budget of its own, and a summary that
// says what it really did (consolidated, or did not and why).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino } from 'pino'
import { describe, expect, it, onTestFinished } from 'vitest'
import { openWorkspaceStores } from '../../src/app/stores.js'
import { wireDreamDeps } from '../../src/app/dream-deps.js'
import { resolveConfig } from '../../src/config/resolve.js'
import { describeFallback } from '../../src/dream/fallback-account.js'
import { runDream } from '../../src/dream/run.js'
import { createScriptedProvider, type ScriptStep } from '../../src/model/scripted.js'
import type { ModelProvider, TurnResult } from '../../src/model/provider.js'
import type { ToolSet } from '../../src/tools/types.js'
import { makeDreamWorld, type DreamWorld } from '../helpers/dream-world.js'
import { anthropicApi } from '../helpers/fake-model-api.js'

const readUser = { name: 'read_file', input: { path: 'notes/memory/user.md' } }
const REQUEST = { mode: 'manual', chatJid: 'web:main', days: 2 } as const

/** DREAMLANE_MAX_TOOL_CALLS=1: a 2-day window gives the model 1 + 3 × 2 = 7 calls. */
function configWithOneCall(world: DreamWorld) {
  const env = { DREAMLANE_MAX_TOOL_CALLS: '1' }
  return resolveConfig({ cwd: world.dir, env, flags: { timezone: 'UTC', workspace: world.dir } })
}

/** A model that reads user.md twice a reply, for as long as it is let. */
async function greedyModel() {
  const server = await anthropicApi.start(
    Array.from({ length: 10 }, () => anthropicApi.tools([readUser, readUser])),
  )
  onTestFinished(() => server.close())
  return { server, provider: anthropicApi.provider(server) }
}

function dailyNote(world: DreamWorld, day: string): string {
  return readFileSync(join(world.paths.daily, `${day}.md`), 'utf8')
}

describe('the offline fallback after the model spent its tool-call budget', () => {
  it('gets its own budget, consolidates the window, and the summary says so', async () => {
    const world = await makeDreamWorld()
    const { server, provider } = await greedyModel()
    const dreamlane = world.open({ config: configWithOneCall(world), provider })
    const run = await dreamlane.dream(REQUEST)
    await dreamlane.close()

    expect(server.requests).toHaveLength(4) // 2 + 2 + 2 calls run, the 4th reply's second refused by the budget
    expect(run.status).toBe('degraded')
    expect(run.reason).toBe(
      'the model turn hit its tool_calls limit; the offline engine consolidated instead (retryable)',
    )
    expect(run.steps.find((s) => s.name === 'fallback')?.detail).toMatch(/^end, \d+ of 406 tool call\(s\)$/)
    expect(dailyNote(world, '2026-11-20')).not.toContain('NEEDS_SUMMARY')
    expect(dailyNote(world, '2026-11-21')).not.toContain('NEEDS_SUMMARY')
    expect(run.unresolvedDays).toEqual([])
    expect(run.summary).not.toMatch(/nothing written|Still unresolved/)
    // The model's 7 calls, then the fallback's own.
    expect(run.toolCalls.slice(0, 7).every((call) => call.name === 'read_file')).toBe(true)
    expect(run.toolCalls.length).toBeGreaterThan(7)
    expect(run.usage.requests).toBe(4)
  }, 30_000)

  it('a fallback that stops at its own limit: the summary says it did not consolidate, and why', async () => {
    const world = await makeDreamWorld()
    const { provider } = await greedyModel()
    const write = {
      tool: 'write_file',
      input: { path: 'notes/memory/reference.md', content: '# Reference\n\n- Atlas uses Postgres.\n' },
    }
    const reads: ScriptStep[] = Array.from({ length: 500 }, () => ({ tool: 'list_files', input: {} }))
    const run = await dreamWith(world, provider, createScriptedProvider([write, ...reads]))

    expect(run.status).toBe('degraded')
    expect(run.reason).toBe(
      'the model turn hit its tool_calls limit; the scripted engine did not consolidate either: ' +
        'it stopped at its limit of 406 tool calls, after writing 1 file(s) (retryable)',
    )
    expect(run.summary).toContain('did not consolidate either')
    expect(run.summary).not.toContain('consolidated instead')
    expect(run.summary).toContain('Still unresolved: 2026-11-20 (unsummarised), 2026-11-21 (unsummarised).')
    expect(run.toolCalls).toHaveLength(7 + 406)
  }, 30_000)
})

/** A dream through the real lifecycle with `fallback` standing in for the offline engine. */
async function dreamWith(world: DreamWorld, provider: ModelProvider, fallback: ModelProvider) {
  const config = configWithOneCall(world)
  const stores = openWorkspaceStores(world.paths, { messagesOnThread: false })
  onTestFinished(() => stores.close())
  const { deps } = wireDreamDeps({
    ...{ config, paths: world.paths, env: {}, clock: world.clock, log: pino({ level: 'silent' }) },
    ...{ stores, signal: new AbortController().signal, provider },
  })
  const run = deps.runs.open(REQUEST)
  return runDream(run.id, REQUEST, { ...deps, fallback })
}

describe('describeFallback', () => {
  const toolsThatWrote = (count: number) =>
    ({
      changedFiles: () => Array.from({ length: count }, (_, i) => `/ws/notes/${i}.md`),
    }) as unknown as ToolSet
  const result = (stop: TurnResult['stop'], limit?: TurnResult['limit']): TurnResult => ({
    stop,
    ...(limit ? { limit } : {}),
    text: '',
    transcript: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, requests: 0 },
  })

  it('names each ending as it was', () => {
    expect(describeFallback('offline', result('end'), toolsThatWrote(3), 400)).toBe(
      'the offline engine consolidated instead',
    )
    expect(describeFallback('offline', result('end'), toolsThatWrote(0), 400)).toBe(
      'the offline engine ran instead and changed nothing',
    )
    expect(describeFallback('offline', result('limit', 'tool_calls'), toolsThatWrote(0), 406)).toBe(
      'the offline engine did not consolidate either: it stopped at its limit of 406 tool calls, with nothing written',
    )
    expect(describeFallback('offline', result('aborted'), toolsThatWrote(2), 406)).toBe(
      'the offline engine did not consolidate either: it was stopped, after writing 2 file(s)',
    )
  })
})
