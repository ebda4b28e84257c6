// /mcp on a real `serve`-style server (port 0): the SDK's Client over Streamable HTTP, behind the API's guards.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { parseDailyNote } from '../../src/notes/daily-note.js'
import { DREAMT_USER_MD, startServerWorld } from '../server/world.js'
import { callRefused, callText, httpMcpClient, recallEventsOf } from './clients.js'

const TOKEN = 's3cret-token'

async function mcpServer(options: { token?: string } = {}) {
  const api = await startServerWorld(options)
  const base = `http://127.0.0.1:${api.server.port}`
  return { ...api, base }
}

describe('/mcp (Streamable HTTP)', () => {
  it('serves tools, resources and the prompt; notes, searches as recall, reads and refuses', async () => {
    const api = await mcpServer()
    const client = await httpMcpClient(api.base, 'http-test')
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'memory_search',
      'memory_read',
      'memory_note',
      'dream',
      'dream_status',
      'dream_review',
      'memory_forget',
    ])
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('memory://MEMORY.md')
    const user = await client.readResource({ uri: 'memory://user.md' })
    expect(user.contents[0]).toMatchObject({
      text: readFileSync(join(api.world.paths.memory, 'user.md'), 'utf8'),
    })
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['startup-memory'])
    mkdirSync(api.world.paths.days, { recursive: true })
    writeFileSync(join(api.world.paths.days, '2026-11-20.md'), '# Friday\n\n- Moved to Porto.\n')
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain(
      'memory://days/2026-11-20.md',
    )
    const day = await client.readResource({ uri: 'memory://days/2026-11-20.md' })
    expect(day.contents[0]).toMatchObject({ text: '# Friday\n\n- Moved to Porto.\n' })
    await expect(client.readResource({ uri: 'memory://days/notes.txt' })).rejects.toThrow(/YYYY-MM-DD/)

    // The world's clock is fixed at 2026-11-21T20:00Z.
    expect(await callText(client, 'memory_note', { text: 'Allergic to peanuts, carries an EpiPen' })).toBe(
      'Noted in notes/daily/2026-11-21.md: - 20:00 Allergic to peanuts, carries an EpiPen',
    )
    const note = readFileSync(join(api.world.paths.daily, '2026-11-21.md'), 'utf8')
    expect(parseDailyNote(note, 'note').preface).toBe(
      '## Noted\n\n- 20:00 Allergic to peanuts, carries an EpiPen',
    )
    const found = JSON.parse(await callText(client, 'memory_search', { query: 'peanuts EpiPen' }))
    expect(found.hits[0]).toMatchObject({ path: 'notes/daily/2026-11-21.md' })
    expect(recallEventsOf(api.world.paths.stateDb, 'mcp:http-test')).toHaveLength(1)
    expect(await callText(client, 'memory_read', { path: 'notes/memory/user.md' })).toContain('green tea')

    expect(await callRefused(client, 'memory_read', { path: '../../etc/passwd' })).toMatch(
      /^PATH_OUT_OF_SCOPE: /,
    )
    symlinkSync('/etc/hostname', join(api.world.paths.notes, 'escape.md'))
    expect(await callRefused(client, 'memory_read', { path: 'notes/escape.md' })).toMatch(
      /^PATH_OUT_OF_SCOPE: .*outside the workspace/,
    )
    // 1 MB passes the HTTP layer and is refused by the tool's schema, as an MCP error result.
    expect(await callRefused(client, 'memory_note', { text: 'y'.repeat(1024 * 1024) })).toContain(
      'Input validation error',
    )
    expect(readFileSync(join(api.world.paths.daily, '2026-11-21.md'), 'utf8')).toBe(note)
    expect(await callText(client, 'dream_status')).toContain('"run": null')
    expect(api.errors).toEqual([])
  })

  it('runs a dream the Dreams page lists, with its summary back through dream_status', async () => {
    const api = await mcpServer()
    const client = await httpMcpClient(api.base, 'http-test')
    const started = JSON.parse(await callText(client, 'dream', { days: 2 }))
    expect(started.run).toMatchObject({ status: 'succeeded', finished: true, chatJid: 'mcp:http-test' })
    const listed = await api.json<{ runs: { id: string; summary: string | null }[] }>('/api/dreams')
    const run = listed.body.runs.find((candidate) => candidate.id === started.run.id)
    expect(run?.summary).toContain('Dream finished')
    const status = JSON.parse(await callText(client, 'dream_status'))
    expect(status.run).toMatchObject({ id: started.run.id, summary: run?.summary })
    expect(readFileSync(join(api.world.paths.memory, 'user.md'), 'utf8')).toBe(DREAMT_USER_MD)
    expect(await callText(client, 'dream_review', { action: 'undo' })).toContain(started.run.id)
    expect(readFileSync(join(api.world.paths.memory, 'user.md'), 'utf8')).not.toBe(DREAMT_USER_MD)
  })

  it('asks for the same token as the API and refuses other origins', async () => {
    const api = await mcpServer({ token: TOKEN })
    await expect(httpMcpClient(api.base, 'no-token')).rejects.toThrow(/401/)
    await expect(
      httpMcpClient(api.base, 'elsewhere', {
        authorization: `Bearer ${TOKEN}`,
        origin: 'https://evil.example',
      }),
    ).rejects.toThrow(/403/)
    const client = await httpMcpClient(api.base, 'with-token', { authorization: `Bearer ${TOKEN}` })
    expect((await client.listTools()).tools).toHaveLength(7)
  })

  it('keeps every append of two sessions writing at once', async () => {
    const api = await mcpServer()
    const [a, b] = await Promise.all([httpMcpClient(api.base, 'a'), httpMcpClient(api.base, 'b')])
    expect(api.host.mcp.sessionCount).toBe(2)
    const APPENDS = 8
    await Promise.all(
      [a, b].flatMap((client, who) =>
        Array.from({ length: APPENDS }, async (_, i) => {
          await callText(client, 'memory_note', { text: `session ${who} line ${i} qk${who}x${i}` })
          await callText(client, 'memory_search', { query: `line ${i}` })
        }),
      ),
    )
    const note = readFileSync(join(api.world.paths.daily, '2026-11-21.md'), 'utf8')
    for (let who = 0; who < 2; who++)
      for (let i = 0; i < APPENDS; i++) expect(note.split(`qk${who}x${i}`).length - 1).toBe(1)
    await a.close()
    expect(api.errors).toEqual([])
  })

  it('answers requests outside a session with a JSON-RPC error, and ends a session on DELETE', async () => {
    const api = await mcpServer()
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const noSession = await api.fetch('/mcp', { method: 'POST', headers, body: list })
    expect(noSession.status).toBe(400)
    expect((await api.fetch('/mcp', { headers })).status).toBe(400)
    const unknown = await api.fetch('/mcp', {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'not-a-session' },
      body: list,
    })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } })
    expect(api.host.mcp.sessionCount).toBe(0)

    const client = await httpMcpClient(api.base, 'short-lived')
    expect(api.host.mcp.sessionCount).toBe(1)
    const transport = client.transport as StreamableHTTPClientTransport
    await transport.terminateSession()
    expect(api.host.mcp.sessionCount).toBe(0)
  })
})
