// `privacy.keepSecretKinds`: a kind the user keeps on purpose is kept alike on every surface (notes, the search
// index, MCP search and read, the dashboard, run summaries and records), and with the default nothing shows it.
// Real workspace, real messages DB, an offline dream and a scripted model dream, a listening server and MCP client.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ConfigFile } from '../../src/config/schema.js'
import { createOfflineProvider } from '../../src/model/offline/engine.js'
import { createScriptedProvider } from '../../src/model/scripted.js'
import type { ModelProvider } from '../../src/model/provider.js'
import { callText, httpMcpClient } from '../mcp/clients.js'
import { startServerWorld, type ServerWorld } from '../server/world.js'

const WIFI = 'CedarLake#88'
const PIN = '40917'
/** In a note written by hand before any dream: the secrets pass meets them there. */
const OLD_WIFI = 'Tr0ub4dor&3'
const OLD_PIN = '73519'
/** Written by hand into MEMORY.md after the dream: only the front ends stand between it and a reader. */
const LATE_WIFI = 'Gr33n-Tea!Lamp'
const LATE_PIN = '86420'

const MESSAGES = [
  {
    chatJid: 'web:main',
    content: `The wifi password at the cabin is ${WIFI}, we go there every summer.`,
    timestamp: '2026-11-21T09:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: `my bank PIN is ${PIN}, and I moved to Porto last month.`,
    timestamp: '2026-11-21T09:01:00.000Z',
  },
]

const REFERENCE = `# Reference\n\n- Home wifi password is ${OLD_WIFI}\n- Card PIN: ${OLD_PIN}\n- Flight BA2490\n`

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}

/** Every surface a user or a client can read memory through, as text, by name. */
async function surfaces(api: ServerWorld, runId: string, notes: string): Promise<Record<string, string>> {
  const { world, host } = api
  const client = await httpMcpClient(`http://127.0.0.1:${api.server.port}`, 'kept-kinds-test')
  const { searchIndex } = await import('../../src/fts/search.js')
  const hits = await searchIndex({
    state: host.dreamlane.state,
    paths: world.paths,
    config: world.config,
    query: 'wifi password',
  })
  const stateDb = [world.paths.stateDb, `${world.paths.stateDb}-wal`].filter(existsSync)
  return {
    notes,
    'search index': JSON.stringify(hits),
    'mcp memory_search': await callText(client, 'memory_search', { query: 'wifi password' }),
    'mcp memory_read reference': await callText(client, 'memory_read', { path: 'notes/memory/reference.md' }),
    'mcp memory_read daily': await callText(client, 'memory_read', { path: 'notes/daily/2026-11-21.md' }),
    'mcp memory_read MEMORY.md': await callText(client, 'memory_read', { path: 'notes/memory/MEMORY.md' }),
    'mcp resource': JSON.stringify(await client.readResource({ uri: 'memory://reference.md' })),
    'mcp resource MEMORY.md': JSON.stringify(await client.readResource({ uri: 'memory://MEMORY.md' })),
    'mcp startup prompt': JSON.stringify(await client.getPrompt({ name: 'startup-memory' })),
    'dashboard /memory': await page(api, '/memory'),
    'dashboard /note': await page(api, '/note?path=notes/memory/reference.md'),
    'dashboard /note MEMORY.md': await page(api, '/note?path=notes/memory/MEMORY.md'),
    'dashboard /dreams/:id': await page(api, `/dreams/${runId}`),
    'run record': JSON.stringify(host.dreamlane.getRun(runId)),
    'state.db': stateDb.map((file) => readFileSync(file, 'latin1')).join('\n'),
  }
}

/** A page's HTML with its character references decoded, so `&` in a value reads as it was written. */
async function page(api: ServerWorld, path: string): Promise<string> {
  const html = await (await api.fetch(path)).text()
  return html.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_all, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  )
}

async function dreamOver(provider: ModelProvider, config: ConfigFile) {
  const api = await startServerWorld({ messages: MESSAGES, dreamProvider: provider, config })
  writeFileSync(join(api.world.paths.memory, 'reference.md'), REFERENCE)
  const run = await api.host.dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
  expect(['succeeded', 'degraded']).toContain(run.status)
  // The notes as the dream left them; the lines written by hand next are for the front ends to withhold.
  const notes = filesUnder(api.world.paths.notes)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n')
  const index = join(api.world.paths.memory, 'MEMORY.md')
  writeFileSync(
    index,
    `${readFileSync(index, 'utf8')}\n- Office wifi password is ${LATE_WIFI}\n- Alarm PIN: ${LATE_PIN}\n`,
  )
  return { api, run, seen: await surfaces(api, run.id, notes) }
}

/** Where each value shows, as "surface: value" (a PIN counts only as a whole number, not inside a timing). */
function shown(seen: Record<string, string>, values: readonly string[]): string[] {
  const found: string[] = []
  for (const [surface, text] of Object.entries(seen))
    for (const value of values) {
      const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      if (new RegExp(`(?<![0-9:,])${escaped}(?![0-9])`).test(text)) found.push(`${surface}: ${value}`)
    }
  return found.sort()
}

/** The surfaces that serve MEMORY.md as it is now, hand-written lines included. */
const SERVING_MEMORY_MD = [
  'search index',
  'mcp memory_search',
  'mcp memory_read MEMORY.md',
  'mcp resource MEMORY.md',
  'mcp startup prompt',
  'dashboard /memory',
  'dashboard /note MEMORY.md',
]

/** The surfaces that serve reference.md (written before the dream, so the secrets pass met it). */
const SERVING_REFERENCE = [
  'notes',
  'mcp memory_read reference',
  'mcp resource',
  'dashboard /memory',
  'dashboard /note',
]

const ALL_VALUES = [WIFI, PIN, OLD_WIFI, OLD_PIN, LATE_WIFI, LATE_PIN]
const KEEP_WIFI: ConfigFile = { privacy: { keepSecretKinds: ['wifi-password'] } }

describe('privacy.keepSecretKinds', () => {
  it('off (the default): no surface shows a secret, one written by hand after the dream included', async () => {
    const { seen } = await dreamOver(createOfflineProvider(), {})
    expect(shown(seen, ALL_VALUES)).toEqual([])
    expect(seen.notes).toContain('(withheld wifi-password')
    expect(seen['dashboard /note']).toContain('Flight BA2490')
    expect(seen['mcp startup prompt']).toContain('Office wifi password is (withheld wifi-password)')
  })

  it('a kept kind shows alike on every surface that serves its note, and every other kind on none', async () => {
    const { seen } = await dreamOver(createOfflineProvider(), KEEP_WIFI)
    expect(shown(seen, [PIN, OLD_PIN, LATE_PIN])).toEqual([])
    const kept = shown(seen, [OLD_WIFI, LATE_WIFI])
    for (const surface of SERVING_REFERENCE) expect(kept).toContain(`${surface}: ${OLD_WIFI}`)
    for (const surface of SERVING_MEMORY_MD) expect(kept).toContain(`${surface}: ${LATE_WIFI}`)
    // The message's wifi password reaches the daily note, and from there every surface that serves it.
    const said = shown(seen, [WIFI])
    for (const surface of ['notes', 'search index', 'mcp memory_search', 'mcp memory_read daily'])
      expect(said).toContain(`${surface}: ${WIFI}`)
  })

  it('turning a kept kind off takes it out of the search index at the next search', async () => {
    const { api } = await dreamOver(createOfflineProvider(), KEEP_WIFI)
    const { searchIndex } = await import('../../src/fts/search.js')
    const { state } = api.host.dreamlane
    const search = (config: typeof api.world.config) =>
      searchIndex({ state, paths: api.world.paths, config, query: 'wifi password' })
    expect(JSON.stringify(await search(api.world.config))).toContain(LATE_WIFI)
    const off = { ...api.world.config, privacy: { keepSecretKinds: [] } }
    const hits = JSON.stringify(await search(off))
    expect(hits).toMatch(/\(withheld «?wifi»?-«?password»?\)/)
    expect(hits).not.toContain(LATE_WIFI)
    expect(hits).not.toContain(OLD_WIFI)
  })

  it("a model's summary keeps a kept kind and withholds the rest, as its notes do", async () => {
    const note = `${REFERENCE}- Cabin wifi password is ${WIFI}\n- Bank PIN is ${PIN}\n`
    const provider = createScriptedProvider([
      { tool: 'get_messages', input: {} },
      { tool: 'write_file', input: { path: 'notes/memory/reference.md', content: note } },
      { text: `Filed the cabin wifi password is ${WIFI} and the bank PIN is ${PIN}.` },
    ])
    const { run, seen } = await dreamOver(provider, KEEP_WIFI)
    expect(run.summary).toContain(`wifi password is ${WIFI}`)
    expect(run.summary).not.toContain(PIN)
    expect(seen['mcp memory_read reference']).toContain(`wifi password is ${WIFI}`)
    expect(shown(seen, [PIN, OLD_PIN, LATE_PIN])).toEqual([])
  })

  it('a forget next to a kept value can be undone: its ledger diff keeps the value the note holds', async () => {
    const { api } = await dreamOver(createOfflineProvider(), KEEP_WIFI)
    const { dreamlane } = api.host
    const reference = join(api.world.paths.memory, 'reference.md')
    const before = readFileSync(reference, 'utf8')
    expect(before).toContain(OLD_WIFI)
    await dreamlane.forget('BA2490')
    expect(readFileSync(reference, 'utf8')).not.toContain('BA2490')
    await dreamlane.undoForget()
    expect(readFileSync(reference, 'utf8')).toBe(before)
  })
})
