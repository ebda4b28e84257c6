// End to end: after an offline dream and a scripted model dream over a chat full of secrets, no value is left under
// notes/ or in state.db's bytes (run records, tool calls, the search index), and every look-alike survives.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createScriptedProvider } from '../../src/model/scripted.js'
import { makeDreamWorld } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { LOOK_ALIKES, SECRET_CASES } from './corpus.js'

const SPLIT = { value: 'Qx7!mLp2zz', lead: 'the router admin password is' }

function history(): MessageSpec[] {
  const texts = [...SECRET_CASES.map((c) => c.text), SPLIT.lead, SPLIT.value]
  return texts.map((content, index) => ({
    chatJid: 'web:main',
    content,
    timestamp: new Date(Date.parse('2026-11-21T08:00:00.000Z') + index * 60_000).toISOString(),
  }))
}

const VALUES = [...SECRET_CASES.map((c) => c.value), SPLIT.value]

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}

/** Every value found, by where: note text, and state.db's raw bytes (its WAL too). */
function leaks(paths: { notes: string; stateDb: string }): string[] {
  const notes = filesUnder(paths.notes).map((file) => readFileSync(file, 'latin1'))
  const db = [paths.stateDb, `${paths.stateDb}-wal`]
    .filter(existsSync)
    .map((file) => readFileSync(file, 'latin1'))
  const found: string[] = []
  for (const value of VALUES) {
    // Short numbers only count as whole numbers: timings and ids hold every 4-digit run somewhere.
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    const pattern = new RegExp(`(?<![0-9])${escaped}(?![0-9])`)
    // In state.db a short number also counts only inside text, not as a JSON number ("durationMs":512): a
    // leaked PIN or code is quoted text there, while timings are numbers after ':' or ','.
    const isShortNumber = /^[0-9]{1,5}$/.test(value)
    const inDb = isShortNumber ? new RegExp(`(?<![0-9:,\\[.])${escaped}(?![0-9])`) : pattern
    if (notes.some((text) => pattern.test(text))) found.push(`notes: ${value}`)
    if (db.some((bytes) => inDb.test(bytes))) found.push(`state.db: ${value}`)
  }
  return found
}

describe('secrets never enter memory', () => {
  it('an offline dream withholds every secret of the corpus from notes and state.db', async () => {
    const world = await makeDreamWorld(history())
    const dreamlane = world.open()
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(['succeeded', 'degraded']).toContain(run.status)
    dreamlane.close()
    expect(leaks(world.paths)).toEqual([])
    const daily = readFileSync(join(world.paths.notes, 'daily', '2026-11-21.md'), 'utf8')
    expect(daily).toMatch(/\(withheld [a-z-]+: said in chat web:main on 2026-11-21, message m\d+\)/)
  })

  it('a scripted model that writes the secrets (as said) into a note leaves none there, and keeps every look-alike', async () => {
    const world = await makeDreamWorld(history())
    const note = [
      '# Reference',
      ...SECRET_CASES.map((c) => `- ${c.text.replace(/\n/g, ' ')}`),
      ...LOOK_ALIKES.map((l) => `- ${l.text}`),
      '',
    ].join('\n')
    const provider = createScriptedProvider([
      { tool: 'get_messages', input: {} },
      { tool: 'write_file', input: { path: 'notes/memory/reference.md', content: note } },
      { text: `done: ${SECRET_CASES.map((c) => c.text).join(' · ')}` },
    ])
    const dreamlane = world.open({ provider })
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    dreamlane.close()
    expect(leaks(world.paths)).toEqual([])
    const written = readFileSync(join(world.paths.memory, 'reference.md'), 'utf8')
    for (const lookAlike of LOOK_ALIKES) expect(written).toContain(lookAlike.text)
  })
})

describe('notes that already hold secrets', () => {
  it('are cleaned by the next dream, named in its summary by kind and file, and kept out of the index and state.db', async () => {
    const world = await makeDreamWorld()
    writeFileSync(
      join(world.paths.memory, 'reference.md'),
      '# Reference\n- Wifi password is Tr0ub4dor&3\n- Passport number: X48213377\n- Order 112-4567890-1234567\n',
    )
    writeFileSync(
      join(world.paths.memory, 'user.md'),
      '# User\n- mein Passwort ist Sonnenblume77\n- Lives in Porto\n',
    )
    const dreamlane = world.open()
    // Indexed before the dream, as `dreamlane index` would have: the index withholds them from the start.
    const { refreshIndex } = await import('../../src/fts/refresh.js')
    await refreshIndex({ state: dreamlane.state, paths: world.paths, config: world.config })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('succeeded')
    expect(run.summary).toContain(
      'withheld 3 secret(s) already in notes: wifi-password, passport, password (notes/memory/reference.md, notes/memory/user.md)',
    )
    dreamlane.close()
    const reference = readFileSync(join(world.paths.memory, 'reference.md'), 'utf8')
    expect(reference).toContain('- Wifi password is (withheld wifi-password)')
    expect(reference).toContain('112-4567890-1234567')
    const db = readFileSync(world.paths.stateDb, 'latin1')
    for (const value of ['Tr0ub4dor&3', 'X48213377', 'Sonnenblume77']) {
      expect(reference + readFileSync(join(world.paths.memory, 'user.md'), 'utf8')).not.toContain(value)
      expect(db).not.toContain(value)
    }
  })
})
