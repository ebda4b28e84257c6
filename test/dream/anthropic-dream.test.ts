import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino } from 'pino'
import { describe, expect, it, onTestFinished } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import type { ConfigFile } from '../../src/config/schema.js'
import { openDreamlane } from '../../src/create.js'
import {
  anthropicReply,
  startScriptedServer,
  toolResultsOf,
  type FakeStep,
} from '../helpers/fake-anthropic.js'
import { makeDreamWorld, SMALL_HISTORY } from '../helpers/dream-world.js'
import { dayStateOf, parseDailyNote } from '../../src/notes/daily-note.js'

const USER_MD = '# User\n\n- Lives in Porto. [[2026-11-20]]\n'

async function dreamWith(script: FakeStep[], settings: ConfigFile = {}) {
  const world = await makeDreamWorld()
  const server = await startScriptedServer(script)
  onTestFinished(() => server.close())
  const env = {
    ANTHROPIC_API_KEY: 'sk-test-not-real',
    ANTHROPIC_BASE_URL: server.url,
    DREAMLANE_DREAM_MODEL: 'claude-test-dream',
  }
  const config = resolveConfig({ env, flags: { ...settings, workspace: world.dir, timezone: 'UTC' } })
  const dreamlane = openDreamlane({ config, env, clock: world.clock, logger: pino({ level: 'silent' }) })
  onTestFinished(() => dreamlane.close())
  return { world, server, dreamlane }
}

describe('a dream on the Anthropic provider (local fake Messages API), through the real lifecycle', () => {
  it('edits notes through the tools, records exact usage and the dream model, and shows refusals as is_error', async () => {
    const { world, server, dreamlane } = await dreamWith([
      anthropicReply.tools(
        [{ name: 'write_file', input: { path: 'notes/memory/user.md', content: USER_MD } }],
        { input: 1000, output: 50, cacheWrite: 2400 },
      ),
      anthropicReply.tools([{ name: 'write_file', input: { path: 'notes/secrets.json', content: '{}' } }], {
        input: 200,
        output: 30,
        cacheRead: 2400,
      }),
      anthropicReply.text('Updated user.md.', { input: 300, output: 10, cacheRead: 2400 }),
    ])
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.provider).toBe('anthropic')
    // The model's bullet, keyed by the pass after its turn.
    expect(readFileSync(join(world.paths.memory, 'user.md'), 'utf8')).toBe(
      `${USER_MD.trimEnd()} <!-- key: user.lives-in-porto; seen: 2026-11-20..2026-11-20 x1 -->\n`,
    )
    expect(run.usage).toEqual({
      inputTokens: 1500,
      outputTokens: 90,
      cacheReadTokens: 4800,
      cacheWriteTokens: 2400,
      requests: 3,
    })
    expect(toolResultsOf(server.requests[2]!)[0]).toMatchObject({ is_error: true })
    expect(server.requests[0]!.body.system).toEqual(
      expect.arrayContaining([expect.objectContaining({ cache_control: { type: 'ephemeral' } })]),
    )
    expect(server.requests.map((r) => r.body.model)).toEqual([
      'claude-test-dream',
      'claude-test-dream',
      'claude-test-dream',
    ])
    expect(run.model).toBe('claude-test-dream')
  })

  it('states the window, the days to finish and every budget in the run message; finish_day completes each day', async () => {
    const finish = (day: string) => ({
      name: 'finish_day',
      input: { day, summary: `- What happened on ${day}.` },
    })
    const { world, server, dreamlane } = await dreamWith([
      anthropicReply.tools([finish('2026-11-20'), finish('2026-11-21')]),
      anthropicReply.text('Finished two days.'),
    ])
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('succeeded')
    const message = server.requests[0]!.body.messages[0].content[0].text as string
    const bytes = SMALL_HISTORY.reduce((sum, m) => sum + Buffer.byteLength(m.content), 0)
    const n = (value: number) => value.toLocaleString('en-US')
    expect(message).toContain(
      'Window: 2026-11-20 .. 2026-11-21 (2 local day(s), 2 with messages, time zone UTC).',
    )
    expect(message).toContain('Days to finish (2, one finish_day call each): 2026-11-20, 2026-11-21.')
    expect(message).toContain('Budget: 406 tool calls; 400,000 tokens in all')
    expect(message).toContain('32,000 output tokens in all, at most 4,096 per reply')
    expect(message).toContain(
      `the window's messages hold ${n(bytes)} bytes. Daily notes and memory files together may add at most ` +
        // a short window: the memory files get their floor, not 8% of its few bytes
        `${n(Math.round(bytes * 0.3) + 2000 - Math.round(bytes * 0.08))} bytes, the memory files (days/ pages ` +
        `included) at most 2,000 of them (30% of the messages' bytes; the memory files 8% in all, what they ` +
        `hold now included, never under 2,000 added; each fact bullet counts 80 bytes more for its key comment); ` +
        'MEMORY.md stays under 6,000 bytes.',
    )
    const results = toolResultsOf(server.requests[1]!)
    expect(results[1]?.content).toMatch(
      /2026-11-21 is complete .*; notes added this dream: [\d,]+ of [\d,]+ bytes/,
    )
    for (const day of ['2026-11-20', '2026-11-21']) {
      const note = parseDailyNote(readFileSync(join(world.paths.daily, `${day}.md`), 'utf8'), day)
      expect(dayStateOf(note)).toBe('complete')
    }
  })

  it('repeated 500s end in degraded with the offline fallback applied; last consolidated does not move', async () => {
    const errors = Array.from({ length: 10 }, () => anthropicReply.error(500, 'api_error'))
    // One real retry (with its real backoff) shows the policy; four would only add seconds of waiting.
    const { world, dreamlane } = await dreamWith(errors, { providers: { anthropic: { maxRetries: 1 } } })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('degraded')
    expect(run.reason).toMatch(
      /anthropic provider failed: model request failed after 2 attempt\(s\): HTTP 500/,
    )
    expect(run.steps.find((s) => s.name === 'fallback')?.ok).toBe(true)
    expect(readFileSync(join(world.paths.daily, '2026-11-21.md'), 'utf8')).not.toContain('NEEDS_SUMMARY')
    expect(dreamlane.runs.lastSucceeded()).toBeNull()
  }, 60_000)
})
