import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createScriptedProvider } from '../../src/model/scripted.js'
import { countStore } from '../../src/recall/stats.js'
import { writeForeignLock } from '../helpers/dream-world.js'
import {
  anthropicReply,
  startScriptedServer,
  toolResultsOf,
  type RecordedRequest,
} from '../helpers/fake-anthropic.js'
import {
  DREAMT_USER_MD,
  USER_MD,
  dreamScript,
  readEvents,
  startServerWorld,
  waitFor,
  type ServerWorld,
} from './world.js'

interface RunJson {
  id: string
  status: string
  gate: string | null
  retryOf: string | null
  attempt: number
  tokens: { input: number; output: number; total: number }
  changedFiles: string[]
  backupId: string | null
  durationMs: number | null
}

async function dreamToEnd(api: ServerWorld, body: unknown = { days: 2 }): Promise<RunJson> {
  const started = await api.json<{ runId: string }>('/api/dreams', { json: body })
  expect(started.status).toBe(202)
  return waitFor(async () => {
    const { body: detail } = await api.json<{ run: RunJson & { finishedAt: string | null } }>(
      `/api/dreams/${started.body.runId}`,
    )
    // Finished means the record is closed and the lock is gone (a held run is marked before its last steps).
    const settled = detail.run.finishedAt !== null && !existsSync(api.world.paths.lockFile)
    return settled && ['succeeded', 'degraded', 'failed', 'skipped', 'held'].includes(detail.run.status)
      ? detail.run
      : undefined
  }, 'the dream to finish')
}

describe('chat API', () => {
  it('sends a message, answers from memory, and lists chats and messages', async () => {
    const api = await startServerWorld()
    const sent = await api.json<{
      message: { id: string }
      reply: { id: string; content: string }
      engine: string
    }>('/api/chats/web:main/messages', {
      json: { text: 'Where do I live? Porto?' },
    })
    expect(sent.status).toBe(201)
    expect(sent.body.engine).toBe('quote')
    expect(sent.body.reply.content).toContain('notes/memory/user.md:3 — Lives in Porto since October 2026.')

    const chats = await api.json<{ chats: { jid: string }[] }>('/api/chats')
    expect(chats.body.chats.map((chat) => chat.jid)).toContain('web:main')
    const history = await api.json<{ messages: { id: string }[] }>('/api/chats/web:main/messages?limit=2')
    expect(history.body.messages.map((m) => m.id)).toEqual([sent.body.message.id, sent.body.reply.id])
  })

  it.each([
    ['an empty body', {}, 'text'],
    ['blank text', { text: '   ' }, 'text is empty'],
    ['an unknown key', { text: 'hi', admin: true }, 'admin'],
    ['text that is too long', { text: 'x'.repeat(8_001) }, 'longer than 8000'],
    ['a non-string', { text: 42 }, 'text'],
  ])('refuses %s with 400 and writes nothing', async (_what, json, message) => {
    const api = await startServerWorld()
    const before = api.host.dreamlane.messages.listChatMessages('web:main').length
    const response = await api.json<{ error: { code: string; message: string } }>(
      '/api/chats/web:main/messages',
      { json },
    )
    expect(response.status).toBe(400)
    expect(response.body.error.code).toBe('REQUEST_INVALID')
    expect(response.body.error.message).toContain(message)
    expect(api.host.dreamlane.messages.listChatMessages('web:main')).toHaveLength(before)
  })

  it('refuses malformed JSON, reserved chat ids and oversized bodies; unknown chats are 404', async () => {
    const api = await startServerWorld()
    const chatsBefore = api.host.dreamlane.messages.listChats().length
    const malformed = await api.json<{ error: { message: string } }>('/api/chats/web:main/messages', {
      method: 'POST',
      body: '{"text":',
      headers: { 'content-type': 'application/json' },
    })
    expect([malformed.status, malformed.body.error.message]).toEqual([
      400,
      'the request body is not valid JSON',
    ])
    const reserved = await api.json('/api/chats/dream:manual:x/messages', { json: { text: 'hi' } })
    expect(reserved.status).toBe(400)
    const huge = await api.json('/api/chats/web:main/messages', { json: { text: 'y'.repeat(70_000) } })
    expect(huge.status).toBe(413)
    expect(api.host.dreamlane.messages.listChats()).toHaveLength(chatsBefore)
    const unknown = await api.json<{ error: { code: string } }>('/api/chats/web:nobody/messages')
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND'])
    const route = await api.json<{ error: { code: string } }>('/api/nothing-here')
    expect(route.status).toBe(404)
  })
})

describe('dreams API', () => {
  it('accepts the POST /api/dreams body exactly as the README documents it', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const documented = /`POST \/api\/dreams` `(\{[^`]+\})`/.exec(readme)?.[1]
    expect(documented).toBeDefined()
    const api = await startServerWorld()
    const started = await api.json<{ accepted: boolean; runId: string }>('/api/dreams', {
      json: JSON.parse(documented ?? '{}'),
    })
    expect(started.status).toBe(202)
    const run = await api.json<{ run: { chatJid: string } }>(`/api/dreams/${started.body.runId}`)
    expect(run.body.run.chatJid).toBe('web:main')
  })

  it('streams a dream’s progress in order over SSE, then shows steps, tool calls, usage and the diff', async () => {
    const api = await startServerWorld()
    const started = await api.json<{ accepted: boolean; gate: string; runId: string }>('/api/dreams', {
      json: { days: 2 },
    })
    expect(started.status).toBe(202)
    expect(started.body).toMatchObject({ accepted: true, gate: 'triggered' })

    const stream = await api.fetch(`/api/dreams/${started.body.runId}/events`)
    expect(stream.headers.get('content-type')).toContain('text/event-stream')
    const events = await readEvents(stream)
    const names = events.map((e) =>
      e.event === 'step'
        ? `${(e.data as { step: string }).step}:${(e.data as { phase: string }).phase}`
        : e.event,
    )
    expect(names[0]).toBe('queued')
    expect(names.at(-1)).toBe('finished')
    const steps = names.filter((name) => name.includes(':'))
    expect(steps).toEqual(
      ['lock', 'backup', 'secrets', 'seed', 'channel', 'model', 'index', 'review', 'fts', 'cleanup'].flatMap(
        (step) => [`${step}:start`, `${step}:end`],
      ),
    )
    expect(names.slice(names.indexOf('model:start'), names.indexOf('model:end'))).toEqual([
      'model:start',
      'tool',
      'tool',
    ])
    const ids = events.map((e) => Number(e.id))
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(ids.length)

    const detail = await api.json<{
      run: RunJson & {
        steps: unknown[]
        toolCalls: { name: string; ok: boolean }[]
        usage: { inputTokens: number }
      }
      diff: {
        available: boolean
        after: { kind: string }
        files: { path: string; change: string; hunks: { lines: string[] }[] }[]
      }
    }>(`/api/dreams/${started.body.runId}`)
    expect(detail.body.run.status).toBe('succeeded')
    expect(detail.body.run.toolCalls.map((call) => [call.name, call.ok])).toEqual([
      ['read_file', true],
      ['write_file', true],
    ])
    expect(detail.body.run.usage.inputTokens).toBe(detail.body.run.tokens.input)
    expect(detail.body.run.tokens.input).toBeGreaterThan(0)
    expect(detail.body.diff.available).toBe(true)
    expect(detail.body.diff.after.kind).toBe('recorded')
    const userDiff = detail.body.diff.files.find((file) => file.path === 'notes/memory/user.md')
    expect(userDiff?.change).toBe('modified')
    expect(userDiff?.hunks.flatMap((hunk) => hunk.lines)).toContain(
      '+- Started learning Portuguese (2026-11-21).',
    )

    const list = await api.json<{ runs: RunJson[] }>('/api/dreams')
    expect(list.body.runs.map((run) => [run.id, run.status])).toEqual([[started.body.runId, 'succeeded']])
    const failedOnly = await api.json<{ runs: RunJson[] }>('/api/dreams?status=failed,lost')
    expect(failedOnly.body.runs).toEqual([])
    const bogus = await api.json<{ error: { message: string } }>('/api/dreams?status=happy')
    expect([bogus.status, bogus.body.error.message]).toEqual([400, expect.stringContaining('status must be')])
  })

  it("shows a run's recorded diff even after later edits; runs without a ledger fall back to the next backup", async () => {
    const api = await startServerWorld()
    const first = await dreamToEnd(api)
    writeFileSync(join(api.world.paths.memory, 'user.md'), 'edited by hand afterwards\n')
    const recorded = await api.json<{
      diff: { after: { kind: string }; files: { path: string; hunks: { lines: string[] }[] }[] }
    }>(`/api/dreams/${first.id}`)
    expect(recorded.body.diff.after.kind).toBe('recorded')
    const lines = recorded.body.diff.files
      .find((f) => f.path === 'notes/memory/user.md')
      ?.hunks.flatMap((h) => h.lines)
    expect(lines).toContain('+- Started learning Portuguese (2026-11-21).')
    expect(lines?.join('\n')).not.toContain('edited by hand')

    const second = await dreamToEnd(api)
    const { diffRun } = await import('../../src/server/run-diff.js')
    const withoutLedger = await diffRun(api.world.paths, api.host.dreamlane.runs.get(first.id), [])
    expect(withoutLedger.after).toMatchObject({ kind: 'next-backup', backupId: second.backupId })
  })

  it('joins a running dream instead of starting a second one', async () => {
    const api = await startServerWorld({ dreamProvider: createScriptedProvider(dreamScript(400)) })
    const first = await api.json<{ runId: string; coalesced: boolean }>('/api/dreams', { json: { days: 2 } })
    const second = await api.json<{ runId: string; coalesced: boolean; accepted: boolean }>('/api/dreams', {
      json: { days: 3 },
    })
    expect(second.status).toBe(202)
    expect(second.body).toMatchObject({ accepted: true, coalesced: true, runId: first.body.runId })
    await readEvents(await api.fetch(`/api/dreams/${first.body.runId}/events`))
    expect(api.host.dreamlane.runs.list()).toHaveLength(1)
  })

  it('returns the gate outcome, not a run, when the gate says no — and writes no run record', async () => {
    const api = await startServerWorld()
    // The time gate counts from the last successful *auto* dream.
    expect((await dreamToEnd(api, { days: 2, mode: 'auto' })).status).toBe('succeeded')
    const refused = await api.json<{ accepted: boolean; gate: string; runId: string | null; reason: string }>(
      '/api/dreams',
      { json: { mode: 'auto' } },
    )
    expect(refused.status).toBe(200)
    expect(refused.body).toMatchObject({ accepted: false, gate: 'time', runId: null })
    expect(refused.body.reason).toContain('minimum')
    expect(api.host.dreamlane.runs.list()).toHaveLength(1)
  })

  it.each([
    [{ days: 0 }, 'days'],
    [{ days: 100_000 }, 'days'],
    [{ days: 2.5 }, 'days'],
    [{ mode: 'bootstrap' }, 'mode'],
    [{ chatJid: 'dream:x' }, 'reserved'],
    [{ days: 2, force: true }, 'force'],
  ])('refuses %j with 400 and queues nothing', async (json, message) => {
    const api = await startServerWorld()
    const response = await api.json<{ error: { message: string } }>('/api/dreams', { json })
    expect(response.status).toBe(400)
    expect(response.body.error.message).toContain(message)
    expect(api.host.dreamlane.runs.list()).toHaveLength(0)
  })

  it('retries a run by id (same window, attempt 2) and 404s unknown ids', async () => {
    const api = await startServerWorld()
    const first = await dreamToEnd(api)
    const retried = await api.json<{ retryOf: string; runId: string }>(`/api/dreams/${first.id}/retry`, {
      method: 'POST',
    })
    expect(retried.status).toBe(202)
    expect(retried.body.retryOf).toBe(first.id)
    const run = await waitFor(async () => {
      const { body } = await api.json<{ run: RunJson }>(`/api/dreams/${retried.body.runId}`)
      return body.run.status === 'succeeded' ? body.run : undefined
    }, 'the retry')
    expect([run.retryOf, run.attempt]).toEqual([first.id, 2])

    for (const [path, method] of [
      ['/api/dreams/run-nope', 'GET'],
      ['/api/dreams/run-nope/retry', 'POST'],
      ['/api/dreams/run-nope/events', 'GET'],
    ] as const) {
      const response = await api.json<{ error: { code: string } }>(path, { method })
      expect([path, response.status, response.body.error.code]).toEqual([path, 404, 'RUN_NOT_FOUND'])
    }
    const badId = await api.json('/api/dreams/a%20b')
    expect(badId.status).toBe(400)
  })

  it('sends the final record at once when following a run that already finished', async () => {
    const api = await startServerWorld()
    const run = await dreamToEnd(api)
    const events = await readEvents(await api.fetch(`/api/dreams/${run.id}/events`))
    expect(events.at(-1)).toMatchObject({
      event: 'finished',
      data: { run: { id: run.id, status: 'succeeded' } },
    })
  })
})

const MEMORY_MD = [
  '# Memory',
  '',
  '- Maya Ortega works at Tidewell in Porto since 2019.',
  '- Project Atlas launches on 2026-12-17 with 40 customers.',
  '- Sister Inês lives in Coimbra; visits every March.',
  '- Biscuit the greyhound was adopted in 2021.',
  '',
].join('\n')
const HALVED_MD = ['# Memory', '', '- Maya Ortega works at Tidewell.', ''].join('\n')

describe('review and undo API', () => {
  async function heldWorld() {
    const api = await startServerWorld({
      dreamProvider: createScriptedProvider([
        { tool: 'write_file', input: { path: 'notes/memory/MEMORY.md', content: HALVED_MD } },
        { text: 'Tidied MEMORY.md.' },
      ]),
    })
    const memory = join(api.world.paths.memory, 'MEMORY.md')
    writeFileSync(memory, MEMORY_MD)
    return { api, memory }
  }

  it('holds a dream that halves MEMORY.md, shows its recorded diff, applies it, then undoes it byte-for-byte', async () => {
    const { api, memory } = await heldWorld()
    const run = await dreamToEnd(api)
    expect(run.status).toBe('held')
    expect(readFileSync(memory, 'utf8')).toBe(MEMORY_MD)

    const detail = await api.json<{
      diff: { after: { kind: string }; files: { path: string; deletions: number }[] }
    }>(`/api/dreams/${run.id}`)
    expect(detail.body.diff.after.kind).toBe('recorded')
    expect(
      detail.body.diff.files.find((f) => f.path === 'notes/memory/MEMORY.md')?.deletions,
    ).toBeGreaterThanOrEqual(4)
    const page = await (await api.fetch(`/dreams/${run.id}`)).text()
    expect(page).toContain('Held for review')
    expect(page).toContain('Apply these changes')
    expect(page).toMatch(/Tidewell|Coimbra|Atlas|2019/)

    const applied = await api.json(`/api/dreams/${run.id}/apply`, { method: 'POST' })
    expect(applied.status).toBe(200)
    expect(readFileSync(memory, 'utf8')).toBe(HALVED_MD)
    const again = await api.json<{ error: { code: string } }>(`/api/dreams/${run.id}/apply`, {
      method: 'POST',
    })
    expect([again.status, again.body.error.code]).toEqual([409, 'RUN_NOT_REVIEWABLE'])

    const pageAfter = await (await api.fetch(`/dreams/${run.id}`)).text()
    expect(pageAfter).toContain('Undo this dream')
    const undone = await api.json(`/api/dreams/${run.id}/undo`, { method: 'POST' })
    expect(undone.status).toBe(200)
    expect(readFileSync(memory, 'utf8')).toBe(MEMORY_MD)
    // The dashboard labels the undo as what it is, not as a manual, triggered dream.
    const dashboard = await (await api.fetch('/dreams')).text()
    const undoRow =
      /<tr data-run-id="[^"]+">(?:(?!<\/tr>)[\s\S])*?undo of[\s\S]*?<\/tr>/.exec(dashboard)?.[0] ?? ''
    expect(undoRow).toContain(`undo of <a href="/dreams/${run.id}">${run.id}</a>`)
    expect(undoRow).not.toContain('triggered')
  })

  it('discards a held run from the page form (no JS) and 404s unknown runs', async () => {
    const { api, memory } = await heldWorld()
    const run = await dreamToEnd(api)
    const form = await api.fetch(`/dreams/${run.id}/discard`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: new URL(api.server.url).origin },
    })
    expect(form.status).toBe(303)
    expect(form.headers.get('location')).toBe(`/dreams/${run.id}?notice=discard`)
    expect(readFileSync(memory, 'utf8')).toBe(MEMORY_MD)
    const { body } = await api.json<{ runs: { id: string; status: string }[] }>('/api/dreams')
    expect(body.runs.find((r) => r.id === run.id)?.status).toBe('discarded')
    const unknown = await api.json('/api/dreams/run-nope/apply', { method: 'POST' })
    expect(unknown.status).toBe(404)
  })
})

describe('chat with the configured model', () => {
  it('answers through the Anthropic provider (a local fake) with the memory files and read-only tools', async () => {
    const fake = await startScriptedServer([
      anthropicReply.tools([{ name: 'search_workspace', input: { query: 'tea' } }], {
        input: 900,
        output: 20,
      }),
      anthropicReply.text('Green tea — notes/memory/user.md says so.', { input: 950, output: 12 }),
    ])
    onTestFinished(() => fake.close())
    const api = await startServerWorld({
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
    })
    const sent = await api.json<{ engine: string; reply: { content: string } }>(
      '/api/chats/web:main/messages',
      { json: { text: 'What do I drink?' } },
    )
    expect(sent.body).toMatchObject({
      engine: 'model',
      reply: { content: 'Green tea — notes/memory/user.md says so.' },
    })
    expect(fake.requests).toHaveLength(2)
    const first = fake.requests[0]?.body
    expect(JSON.stringify(first.system)).toContain('Prefers green tea over coffee.')
    expect(first.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
      'grep_notes',
      'list_files',
      'read_file',
      'search_workspace',
    ])
    expect(JSON.stringify(first.messages)).toContain('What do I drink?')
    expect(toolResultsOf(fake.requests[1] as RecordedRequest)[0]?.content).toContain('notes/memory/user.md')
  })
})

describe('recall from interactive turns', () => {
  it('records what chat searches served, and nothing a dream searched', async () => {
    const dreamSearches = createScriptedProvider([
      { tool: 'search_workspace', input: { query: 'zanzibarite' } },
      ...dreamScript(),
    ])
    const api = await startServerWorld({ dreamProvider: dreamSearches })
    mkdirSync(join(api.world.dir, 'skills'), { recursive: true })
    writeFileSync(
      join(api.world.dir, 'skills', 'minerals.md'),
      '# Minerals\n\n- Zanzibarite is the favourite stone.\n',
    )
    await dreamToEnd(api)
    expect(countStore(api.host.dreamlane.state).events).toBe(0)
    const sent = await api.json<{ reply: { content: string } }>('/api/chats/web:main/messages', {
      json: { text: 'zanzibarite?' },
    })
    expect(sent.body.reply.content).toContain('skills/minerals.md:3 — Zanzibarite is the favourite stone.')
    expect(countStore(api.host.dreamlane.state).events).toBe(1)
  })
})

describe('status and backups API', () => {
  it('reports provider, AutoDream, next run, backlog and memory counts', async () => {
    const api = await startServerWorld()
    const { status, body } = await api.json<Record<string, any>>('/api/status')
    expect(status).toBe(200)
    expect(body.provider).toBe('scripted')
    expect(body.autoDream).toMatchObject({
      enabled: true,
      cron: '0 1 * * *',
      nextRunAt: '2026-11-22T01:00:00.000Z',
    })
    expect(Array.isArray(body.backlog)).toBe(true)
    expect(body.notes).toMatchObject({ memoryFiles: 7, missing: [], dayPages: 0, dailyNotes: 0 })
    expect(body.notes.memoryBytes).toBeGreaterThan(Buffer.byteLength(USER_MD))
    expect(body.memory).toMatchObject({ preset: 'core', shortTerm: 0, promoted: 0, events: 0 })
    expect(body.backups).toEqual({ count: 0, newest: null })
  })

  it('lists backups and restores one under the lock, taking a safety backup first', async () => {
    const api = await startServerWorld()
    const run = await dreamToEnd(api)
    const userMd = join(api.world.paths.memory, 'user.md')
    expect(readFileSync(userMd, 'utf8')).toBe(DREAMT_USER_MD)
    const listed = await api.json<{ backups: { id: string }[] }>('/api/backups')
    expect(listed.body.backups.map((b) => b.id)).toEqual([run.backupId])

    const restored = await api.json<{ restored: string[]; safetyBackup: string }>(
      `/api/backups/${run.backupId}/restore`,
      { method: 'POST' },
    )
    expect(restored.status).toBe(200)
    expect(restored.body.restored).toContain('notes/memory/user.md')
    expect(readFileSync(userMd, 'utf8')).toBe(USER_MD)
    const after = await api.json<{ backups: { id: string }[] }>('/api/backups')
    expect(after.body.backups.map((b) => b.id)).toContain(restored.body.safetyBackup)
    expIsUnlocked(api)
  })

  it('refuses a restore while the workspace is locked (423) and for unknown ids (404), touching nothing', async () => {
    const api = await startServerWorld()
    const run = await dreamToEnd(api)
    const userMd = join(api.world.paths.memory, 'user.md')
    writeForeignLock(api.world.paths.lockFile, process.pid, api.world.clock.now().toISOString())
    const locked = await api.json<{ error: { code: string } }>(`/api/backups/${run.backupId}/restore`, {
      method: 'POST',
    })
    expect([locked.status, locked.body.error.code]).toEqual([423, 'LOCK_HELD'])
    expect(readFileSync(userMd, 'utf8')).toBe(DREAMT_USER_MD)
    const unknown = await api.json<{ error: { code: string } }>(
      '/api/backups/20260101T000000Z-manual-x/restore',
      { method: 'POST' },
    )
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'BACKUP_NOT_FOUND'])
    const malformed = await api.json('/api/backups/..%2F..%2Fetc/restore', { method: 'POST' })
    expect(malformed.status).toBe(400)
  })
})

function expIsUnlocked(api: ServerWorld): void {
  expect(() => readFileSync(api.world.paths.lockFile)).toThrow()
}
