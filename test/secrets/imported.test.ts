// Secrets in imported history (a ChatGPT export and a WhatsApp chat, through the real importers) stay out of notes
// and state.db after an offline dream, a value sent in the message after its noun included.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir } from '../helpers/workspace.js'
import { makeDreamWorld } from '../helpers/dream-world.js'
import { runImport } from '../import/world.js'

const at = (iso: string) => Date.parse(iso) / 1000

/** A ChatGPT export of one conversation: a user turn and the assistant's reply per pair. */
function chatgptExport(turns: { role: 'user' | 'assistant'; text: string; iso: string }[]): string {
  const mapping: Record<string, unknown> = {
    root: { id: 'root', message: null, parent: null, children: ['t0'] },
  }
  turns.forEach((turn, index) => {
    mapping[`t${index}`] = {
      id: `t${index}`,
      message: {
        id: `t${index}`,
        author: { role: turn.role, name: null, metadata: {} },
        create_time: at(turn.iso),
        content: { content_type: 'text', parts: [turn.text] },
        status: 'finished_successfully',
        metadata: {},
      },
      parent: index === 0 ? 'root' : `t${index - 1}`,
      children: index + 1 < turns.length ? [`t${index + 1}`] : [],
    }
  })
  const first = turns[0]?.iso ?? '2026-11-21T09:00:00Z'
  return JSON.stringify([
    {
      title: 'Accounts',
      create_time: at(first),
      update_time: at(first),
      mapping,
      current_node: `t${turns.length - 1}`,
    },
  ])
}

const CHATGPT = [
  {
    role: 'user' as const,
    text: 'Help me rotate this: OPENAI_API_KEY=sk-proj-Qm4Lx8Wz2Rt6Yv1Np5Kj9Hc3',
    iso: '2026-11-21T09:00:00Z',
  },
  { role: 'assistant' as const, text: 'Sure, revoke the old key first.', iso: '2026-11-21T09:00:10Z' },
  {
    role: 'user' as const,
    text: 'o meu PIN é 9384 e a senha do wifi é Lisboa!2025',
    iso: '2026-11-21T09:01:00Z',
  },
]

const WHATSAPP = [
  '11/21/26, 10:05 AM - Alex Doe: the gate code is 55190',
  '11/21/26, 10:06 AM - Sam Lee: thanks! and the wifi password?',
  '11/21/26, 10:07 AM - Alex Doe: Cedar#Lake#77',
  '11/21/26, 10:08 AM - Alex Doe: mein Passwort ist Sonnenblume77, IBAN GB29NWBK60161331926819',
  '11/21/26, 10:09 AM - Sam Lee: flight BA2490 lands at 14:30, call +44 7700 900123',
  '',
].join('\n')

const VALUES = [
  'sk-proj-Qm4Lx8Wz2Rt6Yv1Np5Kj9Hc3',
  '9384',
  'Lisboa!2025',
  '55190',
  'Cedar#Lake#77',
  'Sonnenblume77',
  'GB29NWBK60161331926819',
]

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}

describe('imported history', () => {
  it('a ChatGPT export and a WhatsApp chat leave no secret in notes or state.db', async () => {
    const world = await makeDreamWorld([])
    const dir = makeTempDir()
    writeFileSync(join(dir, 'conversations.json'), chatgptExport(CHATGPT))
    writeFileSync(join(dir, 'WhatsApp Chat with Sam Lee.txt'), WHATSAPP)
    for (const name of ['conversations.json', 'WhatsApp Chat with Sam Lee.txt']) {
      const result = await runImport(world, join(dir, name))
      expect(result.messages).toBeGreaterThan(0)
    }
    const dreamlane = world.open()
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(['succeeded', 'degraded']).toContain(run.status)
    dreamlane.close()
    const notes = filesUnder(world.paths.notes)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n')
    const db = [world.paths.stateDb, `${world.paths.stateDb}-wal`].filter(existsSync)
    for (const value of VALUES) {
      expect(notes).not.toContain(value)
      for (const file of db) expect(readFileSync(file, 'latin1')).not.toContain(value)
    }
    expect(notes).toContain('Flight BA2490 lands at 14:30, call +44 7700 900123')
    // What memory keeps instead: the kind, the chat and the message, as each importer named them.
    expect(notes).toContain('(withheld api-key: said in chat Accounts on 2026-11-21, message t0)')
    expect(notes).toMatch(/\(withheld pin: said in chat Sam Lee on 2026-11-21, message wa-[0-9a-f-]+\)/)
  })
})
