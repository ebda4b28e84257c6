// The write tools withhold secrets whatever the model writes; the call records keep none of them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createToolSet } from '../../src/tools/tool-set.js'
import { makeToolWorld } from './world.js'

const USER = '# User\n- Alex lives in Lisbon\n'

function secretWorld(flags = {}) {
  const world = makeToolWorld(
    { 'notes/memory/user.md': USER, 'notes/memory/reference.md': '# Reference\n' },
    {
      flags,
      messages: [
        {
          id: 'wa-17',
          chatJid: 'home@s.whatsapp.net',
          content: 'The wifi password is Tr0ub4dor&3 and my bank PIN is 4821',
          timestamp: '2026-11-22T09:14:00.000Z',
        },
        {
          id: 'wa-18',
          chatJid: 'home@s.whatsapp.net',
          content: 'the router admin password is',
          timestamp: '2026-11-22T09:15:00.000Z',
        },
        {
          id: 'wa-19',
          chatJid: 'home@s.whatsapp.net',
          content: 'Qx7!mLp2',
          timestamp: '2026-11-22T09:16:00.000Z',
        },
      ],
    },
  )
  return { ...world, tools: createToolSet(world.context) }
}

const readNote = (dir: string, rel: string) => readFileSync(join(dir, rel), 'utf8')

describe('note writes withhold secrets', () => {
  it('replaces a secret the model writes with where it was said, and tells the model why', async () => {
    const { tools, dir } = secretWorld()
    await tools.call('get_messages', {})
    const result = await tools.call('write_file', {
      path: 'notes/memory/reference.md',
      content: '# Reference\n- Wifi: Tr0ub4dor&3\n- Bank PIN is 4821\n- Router: Qx7!mLp2\n',
    })
    expect(result.ok).toBe(true)
    expect(result.content).toMatch(/withheld 3 secret\(s\) \(wifi-password, pin, password\)/)
    const note = readNote(dir, 'notes/memory/reference.md')
    for (const value of ['Tr0ub4dor&3', '4821', 'Qx7!mLp2']) expect(note).not.toContain(value)
    expect(note).toContain(
      '(withheld wifi-password: said in chat home@s.whatsapp.net on 2026-11-22, message wa-17)',
    )
    expect(note).toContain(
      '(withheld password: said in chat home@s.whatsapp.net on 2026-11-22, message wa-19)',
    )
  })

  it('withholds in edits, and in what an edit leaves of the file', async () => {
    const { tools, dir } = secretWorld()
    const result = await tools.call('edit_file', {
      path: 'notes/memory/user.md',
      old_string: '- Alex lives in Lisbon\n',
      new_string: '- Alex lives in Lisbon\n- o meu PIN é 9384\n',
    })
    expect(result.ok).toBe(true)
    expect(readNote(dir, 'notes/memory/user.md')).toBe(
      '# User\n- Alex lives in Lisbon\n- o meu PIN é (withheld pin)\n',
    )
  })

  it('keeps a kind the user keeps on purpose', async () => {
    const { tools, dir } = secretWorld({ privacy: { keepSecretKinds: ['wifi-password'] } })
    await tools.call('write_file', {
      path: 'notes/memory/reference.md',
      content: '# Reference\n- The wifi password is Tr0ub4dor&3\n- PIN: 4821\n',
    })
    const note = readNote(dir, 'notes/memory/reference.md')
    expect(note).toContain('Tr0ub4dor&3')
    expect(note).not.toContain('4821')
  })

  it('records neither the secrets it showed nor the ones it was asked to write', async () => {
    const { tools } = secretWorld()
    await tools.call('get_messages', {})
    await tools.call('write_file', {
      path: 'notes/memory/reference.md',
      content: '# Reference\n- Router: Qx7!mLp2, PIN 4821\n',
    })
    const recorded = JSON.stringify(tools.calls())
    const transcript = JSON.stringify(
      tools.redactRecord?.([
        { kind: 'tool_result', name: 'get_messages', ok: true, content: 'Qx7!mLp2 / 4821' },
      ]),
    )
    for (const value of ['Tr0ub4dor&3', '4821', 'Qx7!mLp2']) {
      expect(recorded).not.toContain(value)
      expect(transcript).not.toContain(value)
    }
  })
})
