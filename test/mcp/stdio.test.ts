// `dreamlane mcp` as a client sees it: the real CLI process on stdio, driven by the SDK's own Client.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { localDayOf } from '../../src/time/local-day.js'
import { runCli } from '../helpers/cli.js'
import { makeDreamWorld } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { callRefused, callText, recallEventsOf, spawnMcpClient } from './clients.js'

const TRIPS = '# Trips\n\nBooked the Lisbon night train for the December conference.\n'

/** A little history ending an hour ago, so a dream on the real clock has days to work on. */
function recentHistory(): MessageSpec[] {
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString()
  return [
    { chatJid: 'web:main', content: 'I moved to Porto last month and I love it.', timestamp: at(26) },
    { chatJid: 'web:main', content: 'Porto is lovely.', timestamp: at(25.9), isBotMessage: true },
    { chatJid: 'web:main', content: 'We decided to use Postgres for the Atlas project.', timestamp: at(1) },
    { chatJid: 'web:main', content: 'Noted: Postgres for Atlas.', timestamp: at(0.9), isBotMessage: true },
  ]
}

async function mcpWorld() {
  const world = await makeDreamWorld(recentHistory())
  writeFileSync(join(world.paths.notes, 'trips.md'), TRIPS)
  return world
}

function todaysNote(world: { paths: { daily: string } }): string {
  return join(world.paths.daily, `${localDayOf(new Date(), 'UTC')}.md`)
}

describe('dreamlane mcp (stdio)', () => {
  it('lists its tools, resources and prompt, and serves the memory files and the startup contract', async () => {
    const world = await mcpWorld()
    const { client } = await spawnMcpClient(world.dir, 'stdio-test')
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'memory_search',
      'memory_read',
      'memory_note',
      'dream',
      'dream_status',
      'dream_review',
      'memory_forget',
    ])
    const uris = (await client.listResources()).resources.map((resource) => resource.uri)
    expect(uris).toContain('memory://MEMORY.md')
    expect(uris).toContain('memory://user.md')
    const memory = await client.readResource({ uri: 'memory://MEMORY.md' })
    expect(memory.contents[0]).toMatchObject({
      uri: 'memory://MEMORY.md',
      text: readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8'),
    })
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['startup-memory'])
    const prompt = await client.getPrompt({ name: 'startup-memory' })
    const content = prompt.messages[0]?.content
    const text = content?.type === 'text' ? content.text : ''
    expect(text).toContain('memory_search')
    expect(text).toContain(
      `--- notes/memory/MEMORY.md ---\n${readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8').trimEnd()}`,
    )
  })

  it('notes, searches (recorded as recall for the client), reads, and refuses escapes and huge notes', async () => {
    const world = await mcpWorld()
    const { client } = await spawnMcpClient(world.dir, 'stdio-test')
    const noted = await callText(client, 'memory_note', { text: 'Prefers the window seat on long trains' })
    expect(noted).toMatch(
      /^Noted in notes\/daily\/\d{4}-\d{2}-\d{2}\.md: - \d{2}:\d{2} Prefers the window seat/,
    )
    expect(readFileSync(todaysNote(world), 'utf8')).toMatch(
      /## Noted\n\n- \d{2}:\d{2} Prefers the window seat on long trains\n/,
    )

    const found = JSON.parse(
      await callText(client, 'memory_search', { query: 'window seat trains', limit: 5 }),
    )
    const paths = found.hits.map((hit: { path: string }) => hit.path)
    expect(paths).toContain(`notes/daily/${localDayOf(new Date(), 'UTC')}.md`)
    const trips = JSON.parse(await callText(client, 'memory_search', { query: 'Lisbon night train' }))
    expect(trips.hits[0]).toMatchObject({ path: 'notes/trips.md', line: 3 })
    expect(recallEventsOf(world.paths.stateDb, 'mcp:stdio-test').length).toBeGreaterThanOrEqual(2)

    expect(await callText(client, 'memory_read', { path: 'notes/trips.md' })).toBe(TRIPS)
    for (const path of ['../outside.md', '/etc/passwd', 'notes/../../etc/passwd', '.dreamlane/config.json'])
      expect(await callRefused(client, 'memory_read', { path })).toMatch(/^PATH_OUT_OF_SCOPE: /)
    expect(await callRefused(client, 'memory_read', { path: 'skills/dream/SKILL.md' })).toContain(
      'notes only',
    )

    const before = readFileSync(todaysNote(world), 'utf8')
    const huge = await callRefused(client, 'memory_note', { text: 'x'.repeat(1024 * 1024) })
    expect(huge).toContain('Input validation error')
    expect(await callRefused(client, 'memory_note', { text: 'hide <!-- this -->' })).toMatch(
      /^TOOL_INPUT_INVALID: /,
    )
    expect(readFileSync(todaysNote(world), 'utf8')).toBe(before)
    // Still serving after every refusal.
    expect(await callText(client, 'memory_read', { path: 'notes/trips.md' })).toBe(TRIPS)
  })

  it('runs a dream that `runs` lists, reports its summary through dream_status, and undoes it', async () => {
    const world = await mcpWorld()
    const { client } = await spawnMcpClient(world.dir, 'stdio-test')
    const started = JSON.parse(await callText(client, 'dream', { days: 3 }))
    const id: string = started.run.id
    expect(started.run).toMatchObject({ mode: 'manual', chatJid: 'mcp:stdio-test' })
    const listed = await runCli(['--workspace', world.dir, '--json', 'runs'])
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout).map((run: { id: string }) => run.id)).toContain(id)

    let status = JSON.parse(await callText(client, 'dream_status', { runId: id }))
    for (let polls = 0; !status.run.finished && polls < 600; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      status = JSON.parse(await callText(client, 'dream_status', { runId: id }))
    }
    expect(status.run).toMatchObject({ id, status: 'succeeded', finished: true })
    const shown = await runCli(['--workspace', world.dir, '--json', 'runs', 'show', id])
    expect(status.run.summary).toBe(JSON.parse(shown.stdout).summary)
    expect(status.run.summary).toContain('Dream finished')
    expect((JSON.parse(await callText(client, 'dream_status')) as { run: { id: string } }).run.id).toBe(id)

    expect(await callRefused(client, 'dream_review', { action: 'apply' })).toMatch(/^[A-Z_]+: /)
    expect(await callRefused(client, 'dream_review', { action: 'redo' })).toContain('Input validation error')
    const undone = await callText(client, 'dream_review', { action: 'undo', runId: id })
    expect(undone.length).toBeGreaterThan(0)
    const after = JSON.parse((await runCli(['--workspace', world.dir, '--json', 'runs', 'show', id])).stdout)
    expect(after.status).toBe('undone')
  }, 120_000)

  it('holds no lock while idle, and two clients appending and searching at once lose nothing', async () => {
    const world = await mcpWorld()
    const [a, b] = await Promise.all([
      spawnMcpClient(world.dir, 'client-a'),
      spawnMcpClient(world.dir, 'client-b'),
    ])
    await callText(a.client, 'memory_search', { query: 'Porto' })
    expect(existsSync(world.paths.lockFile)).toBe(false)
    // Another command that needs the workspace lock runs while both servers are up.
    expect((await runCli(['--workspace', world.dir, 'seed', '--days', '2'])).code).toBe(0)

    const APPENDS = 12
    const work = (client: typeof a.client, who: string) =>
      Promise.all(
        Array.from({ length: APPENDS }, async (_, i) => {
          await callText(client, 'memory_note', { text: `${who} remembers item ${i} zq${who}${i}x` })
          await callText(client, 'memory_search', { query: `item ${i}` })
        }),
      )
    await Promise.all([work(a.client, 'alpha'), work(b.client, 'beta')])

    const note = readFileSync(todaysNote(world), 'utf8')
    for (const who of ['alpha', 'beta'])
      for (let i = 0; i < APPENDS; i++) expect(note.split(`zq${who}${i}x`).length - 1, `${who} ${i}`).toBe(1)
    expect(note.match(/^## Noted$/gm)).toHaveLength(1)
    expect(existsSync(world.paths.lockFile)).toBe(false)
    expect(recallEventsOf(world.paths.stateDb, 'mcp:client-b').length).toBeGreaterThan(0)
  }, 120_000)

  it('refuses to start on a missing workspace or messages DB, saying why, before any handshake', async () => {
    const missing = await runCli(['--workspace', '/nonexistent/dreamlane-ws', 'mcp'], { input: '' })
    expect(missing.code).toBe(4)
    expect(missing.stderr).toContain('does not exist')
    const world = await mcpWorld()
    rmSync(world.paths.messagesDb)
    const noDb = await runCli(['--workspace', world.dir, 'mcp'], { input: '' })
    expect(noDb.code).toBe(4)
    expect(noDb.stderr).toContain('messages database not found')
    expect(noDb.stdout).toBe('')
  })
})
