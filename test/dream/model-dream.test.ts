// A whole dream on each real provider, chosen through config and env as a user would, against its fake API:
// the same tools, records and fallback on both.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino } from 'pino'
import { describe, expect, it, onTestFinished } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import { openDreamlane } from '../../src/create.js'
import type { FakeStep } from '../helpers/fake-anthropic.js'
import { dayStateOf, parseDailyNote } from '../../src/notes/daily-note.js'
import { makeDreamWorld } from '../helpers/dream-world.js'
import { FAKE_APIS, type FakeModelApi, type ReplyUsage } from '../helpers/fake-model-api.js'

const USER_MD = '# User\n\n- Lives in Porto. [[2026-11-20]]\n'
/** Each provider's own per-reply cap, set apart so the run message is seen to name the one in use. */
const REPLY_CAP = { anthropic: 3_000, 'openai-compatible': 2_048 }
const PROVIDERS = {
  anthropic: { maxRetries: 0, maxTokensPerRequest: REPLY_CAP.anthropic },
  openaiCompatible: { maxRetries: 0, maxTokensPerRequest: REPLY_CAP['openai-compatible'] },
}

async function dreamOn(api: FakeModelApi, script: FakeStep[]) {
  const world = await makeDreamWorld()
  const server = await api.start(script)
  onTestFinished(() => server.close())
  const env = { ...api.envFor(server), DREAMLANE_DREAM_MODEL: 'dream-test-model' }
  const flags = { workspace: world.dir, timezone: 'UTC', providers: PROVIDERS }
  const config = resolveConfig({ env, flags })
  const dreamlane = openDreamlane({ config, env, clock: world.clock, logger: pino({ level: 'silent' }) })
  onTestFinished(() => dreamlane.close())
  const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
  return { world, server, dreamlane, run }
}

describe.each(FAKE_APIS)('a dream on the $name provider, chosen by config and env', (api) => {
  it('writes through the tools, records exact usage, provider and model, and answers a refusal as an error', async () => {
    const usages: ReplyUsage[] = [
      { fresh: 1000, output: 50, cacheWrite: 2400 },
      { fresh: 200, output: 30, cacheRead: 2400 },
      { fresh: 300, output: 10, cacheRead: 2400 },
    ]
    const { world, server, run } = await dreamOn(api, [
      api.tools(
        [{ name: 'write_file', input: { path: 'notes/memory/user.md', content: USER_MD } }],
        usages[0],
      ),
      api.tools([{ name: 'write_file', input: { path: 'notes/secrets.json', content: '{}' } }], usages[1]),
      api.text('Updated user.md.', usages[2]),
    ])
    expect(run.provider).toBe(api.name)
    expect(run.model).toBe('dream-test-model')
    expect(server.requests.map((request) => request.body.model)).toEqual(Array(3).fill('dream-test-model'))
    // The model's bullet, keyed by the fact-keys pass after the turn whichever provider wrote it.
    expect(readFileSync(join(world.paths.memory, 'user.md'), 'utf8')).toBe(
      `${USER_MD.trimEnd()} <!-- key: user.lives-in-porto; seen: 2026-11-20..2026-11-20 x1 -->\n`,
    )
    expect(run.usage).toEqual(api.usageOf(usages))
    expect(api.resultsOf(server.requests[2]!)).toEqual([
      { id: expect.any(String), content: expect.stringContaining('notes/secrets.json'), isError: true },
    ])
    expect(run.toolCalls.map((call) => [call.name, call.ok])).toEqual([
      ['write_file', true],
      ['write_file', false],
    ])
  })

  it('names the days to finish and its own per-reply cap in the run message; finish_day completes each day', async () => {
    const finish = (day: string) => ({
      name: 'finish_day',
      input: { day, summary: `- What happened on ${day}.` },
    })
    const { world, server, run } = await dreamOn(api, [
      api.tools([finish('2026-11-20'), finish('2026-11-21')]),
      api.text('Finished two days.'),
    ])
    expect(run.status).toBe('succeeded')
    const message = api.openingOf(server.requests[0]!).prompt
    const n = (value: number) => value.toLocaleString('en-US')
    expect(message).toContain(
      'Window: 2026-11-20 .. 2026-11-21 (2 local day(s), 2 with messages, time zone UTC).',
    )
    expect(message).toContain('Days to finish (2, one finish_day call each): 2026-11-20, 2026-11-21.')
    expect(message).toContain('Budget: 406 tool calls; 400,000 tokens in all')
    const cap = REPLY_CAP[api.name]
    expect(message).toContain(`32,000 output tokens in all, at most ${n(cap)} per reply`)
    expect(api.maxTokensOf(server.requests[0]!)).toBe(cap)
    const results = api.resultsOf(server.requests[1]!)
    expect(results.map((result) => result.isError)).toEqual([false, false])
    expect(results[1]?.content).toMatch(
      /2026-11-21 is complete .*; notes added this dream: [\d,]+ of [\d,]+ bytes/,
    )
    for (const day of ['2026-11-20', '2026-11-21']) {
      const note = parseDailyNote(readFileSync(join(world.paths.daily, `${day}.md`), 'utf8'), day)
      expect(dayStateOf(note)).toBe('complete')
    }
  })

  it('a provider failing after retries: degraded, the offline engine consolidated, last consolidated unmoved', async () => {
    const { world, dreamlane, run } = await dreamOn(api, [api.error(500)])
    expect(run.status).toBe('degraded')
    expect(run.reason).toMatch(
      new RegExp(`^the ${api.name} provider failed: .*HTTP 500.*; the offline engine consolidated instead`),
    )
    expect(run.steps.find((s) => s.name === 'fallback')?.ok).toBe(true)
    expect(readFileSync(join(world.paths.daily, '2026-11-21.md'), 'utf8')).not.toContain('NEEDS_SUMMARY')
    expect(dreamlane.runs.lastSucceeded()).toBeNull()
  }, 30_000)
})
