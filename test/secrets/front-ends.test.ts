// A note that still holds secrets (written by hand, before any dream cleaned it) never shows them through MCP
// (memory_search, memory_read, resources), the dashboard's HTML or a note taken over MCP.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { callText, httpMcpClient } from '../mcp/clients.js'
import { startServerWorld } from '../server/world.js'

const REFERENCE =
  '# Reference\n\n- Wifi password is Tr0ub4dor&3 at the cabin\n- IBAN DE89 3704 0044 0532 0130 00\n- Flight BA2490\n'
const VALUES = ['Tr0ub4dor&3', 'DE89 3704 0044 0532 0130 00', '4821']

describe('front ends never show a secret', () => {
  it('MCP search, read, resources and notes, and the dashboard, withhold what a note still holds', async () => {
    const api = await startServerWorld()
    writeFileSync(join(api.world.paths.memory, 'reference.md'), REFERENCE)
    const client = await httpMcpClient(`http://127.0.0.1:${api.server.port}`, 'secrets-test')
    const served = [
      await callText(client, 'memory_search', { query: 'cabin' }),
      await callText(client, 'memory_search', { query: 'IBAN' }),
      await callText(client, 'memory_read', { path: 'notes/memory/reference.md' }),
      JSON.stringify(await client.readResource({ uri: 'memory://reference.md' })),
      await callText(client, 'memory_note', { text: 'my bank PIN is 4821' }),
      readFileSync(join(api.world.paths.daily, '2026-11-21.md'), 'utf8'),
      await (await api.fetch('/memory')).text(),
    ]
    expect(served[0]).toContain('notes/memory/reference.md')
    expect(served[2]).toContain('Wifi password is (withheld wifi-password) at the cabin')
    expect(served[6]).toContain('Flight BA2490')
    for (const text of served) for (const value of VALUES) expect(text).not.toContain(value)
  })
})
