// Forget on request is one use case behind four front ends: chat, CLI, HTTP and MCP each preview the same items
// and leave the same notes behind. Real files, a real listening server, the real CLI and the SDK's MCP client.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { httpMcpClient, callText } from '../mcp/clients.js'
import { startServerWorld } from './world.js'

/** Notes that mention the dentist in every way forget knows: a fact, a topic, a Noted line, a summary sentence. */
const NOTES: Record<string, string> = {
  'notes/memory/user.md':
    '# User\n\n## People\n\n- **Dentist: Dr Sousa** — my dentist is Dr Sousa [[2026-11-20]] <!-- key: user.relation.dentist -->\n- **City: Porto** — moved to Porto [[2026-11-20]] <!-- key: user.city; value: Porto -->\n',
  'notes/memory/recent-context.md':
    '# Recent context\n\n<!-- dreamlane:begin recent-context -->\n- [[2026-11-20]] Fri, 4 messages: Porto, Dr Sousa, flat\n<!-- dreamlane:end recent-context -->\n',
  'notes/daily/2026-11-20.md':
    "---\ndate: '2026-11-20'\nsummarised_until: '2026-11-20T10:00:05.000Z'\nmessages_total: 4\n---\n# Friday, November 20, 2026\n\n## Noted\n\n- 09:10 Dentist appointments are with Dr Sousa\n- 09:12 Likes window seats\n\n## Summary\n\n- Alex: My dentist is Dr Sousa. Alex: I moved to Porto last month.\n",
}

function writeNotes(dir: string): void {
  for (const [path, text] of Object.entries(NOTES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(join(dir, 'notes'), { recursive: true, withFileTypes: true }))
    if (entry.isFile() && entry.name.endsWith('.md') && entry.name !== 'DREAMS.md') {
      const file = join(entry.parentPath, entry.name)
      out[relative(dir, file).split(sep).join('/')] = readFileSync(file, 'utf8')
    }
  return out
}

interface Outcome {
  items: unknown[]
  notes: Record<string, string>
}

async function viaChat(): Promise<Outcome> {
  const api = await startServerWorld()
  writeNotes(api.world.dir)
  const reply = (await api.host.dreamlane.handleChatInput('web:main', 'please forget my dentist')) ?? ''
  expect(reply).toContain('/forget confirm')
  const items = (await api.host.dreamlane.previewForget('my dentist')).items
  expect(await api.host.dreamlane.handleChatInput('web:main', '/forget confirm')).toMatch(
    /^Forgotten \(forget-/,
  )
  return { items, notes: snapshot(api.world.dir) }
}

async function viaCli(): Promise<Outcome> {
  const api = await startServerWorld()
  writeNotes(api.world.dir)
  const preview = await runCli(['-w', api.world.dir, '--json', 'forget', 'my', 'dentist'])
  expect(preview.code, preview.stderr).toBe(0)
  expect(snapshot(api.world.dir)).toEqual(NOTES_AS_WRITTEN(api.world.dir))
  const done = await runCli(['-w', api.world.dir, '--json', 'forget', 'my', 'dentist', '--yes'])
  expect(done.code, done.stderr).toBe(0)
  expect(JSON.parse(done.stdout)).toMatchObject({ confirmed: true })
  return { items: JSON.parse(preview.stdout).items, notes: snapshot(api.world.dir) }
}

async function viaHttp(): Promise<Outcome> {
  const api = await startServerWorld()
  writeNotes(api.world.dir)
  const preview = await api.json<{ items: unknown[]; token: string }>('/api/forget', {
    json: { what: 'my dentist' },
  })
  expect(preview.status).toBe(200)
  const done = await api.json('/api/forget', {
    json: { what: 'my dentist', confirm: true, token: preview.body.token },
  })
  expect(done).toMatchObject({ status: 200, body: { confirmed: true } })
  return { items: preview.body.items, notes: snapshot(api.world.dir) }
}

async function viaMcp(): Promise<Outcome> {
  const api = await startServerWorld()
  writeNotes(api.world.dir)
  const base = `http://127.0.0.1:${api.server.port}`
  const client = await httpMcpClient(base, 'forget-test')
  const preview = JSON.parse(await callText(client, 'memory_forget', { what: 'my dentist' }))
  expect(preview.confirmed).toBe(false)
  const refused = await client.callTool({
    name: 'memory_forget',
    arguments: { what: 'my dentist', confirm: true },
  })
  expect(refused.isError).toBe(true)
  const done = JSON.parse(
    await callText(client, 'memory_forget', { what: 'my dentist', confirm: true, token: preview.token }),
  )
  expect(done.confirmed).toBe(true)
  return { items: preview.items, notes: snapshot(api.world.dir) }
}

const NOTES_AS_WRITTEN = (dir: string) => ({ ...snapshot(dir), ...NOTES })

describe('forget from every front end', () => {
  it('chat, CLI, HTTP and MCP preview the same items and leave the same notes, without the dentist', async () => {
    const outcomes = {
      chat: await viaChat(),
      cli: await viaCli(),
      http: await viaHttp(),
      mcp: await viaMcp(),
    }
    const { chat } = outcomes
    expect(chat.items.length).toBe(4)
    for (const outcome of Object.values(outcomes)) {
      expect(outcome.items).toEqual(chat.items)
      expect(outcome.notes).toEqual(chat.notes)
    }
    const text = Object.values(chat.notes).join('\n')
    expect(text).not.toMatch(/dentist|sousa/i)
    expect(text).toContain('**City: Porto**')
    expect(text).toContain('- 09:12 Likes window seats')
    expect(chat.notes['notes/memory/recent-context.md']).toContain('Fri, 4 messages: Porto, flat')
  }, 120_000)

  it('the chat recognises plain requests in several languages and answers with the preview', async () => {
    const api = await startServerWorld()
    writeNotes(api.world.dir)
    const { dreamlane } = api.host
    for (const request of [
      'Please forget my dentist.',
      'esquece o Dr Sousa',
      'oublie Dr Sousa',
      'olvida a Dr Sousa',
      'vergiss Dr Sousa',
    ])
      expect(await dreamlane.handleChatInput('web:main', request), request).toMatch(/^Forgetting "/)
    // A chat with no earlier message to point back at.
    expect(await dreamlane.handleChatInput('web:empty', "don't remember that")).toMatch(
      /^What should I forget\?/,
    )
    expect(await dreamlane.handleChatInput('web:main', "don't forget to buy milk")).toBeNull()
    expect(await dreamlane.handleChatInput('web:main', '/forget cancel')).toContain('Nothing was removed')
    expect(await dreamlane.handleChatInput('web:main', '/forget confirm')).toContain('No forget is waiting')
    expect(snapshot(api.world.dir)).toEqual(NOTES_AS_WRITTEN(api.world.dir))
  })
})
