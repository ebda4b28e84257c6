// A whole dream on each real provider, chosen through config and env as a user would, against its fake API:
// the same tools, records and fallback on both.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino } from 'pino'
import { describe, expect, it, onTestFinished } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import { openDreamlane } from '../../src/create.js'
import type { FakeStep } from '../helpers/fake-anthropic.js'
import { makeDreamWorld } from '../helpers/dream-world.js'
import { FAKE_APIS, type FakeModelApi, type ReplyUsage } from '../helpers/fake-model-api.js'

const USER_MD = '# User\n\n- Lives in Porto. [[2026-11-20]]\n'
const NO_RETRIES = { anthropic: { maxRetries: 0 }, openaiCompatible: { maxRetries: 0 } }

async function dreamOn(api: FakeModelApi, script: FakeStep[]) {
  const world = await makeDreamWorld()
  const server = await api.start(script)
  onTestFinished(() => server.close())
  const env = { ...api.envFor(server), DREAMLANE_DREAM_MODEL: 'dream-test-model' }
  const flags = { workspace: world.dir, timezone: 'UTC', providers: NO_RETRIES }
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
