// Private chats: a chat excluded by memory.excludeChats, and a /private on … off stretch of another, leave no
// trace in notes, cues or the index after a dream, and the dashboard says they are kept out.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { recallSinkFor } from '../../src/chat/recall-hook.js'
import { searchIndex } from '../../src/fts/search.js'
import { createOfflineProvider } from '../../src/model/offline/engine.js'
import { createScriptedProvider } from '../../src/model/scripted.js'
import { ensureRecallSchema } from '../../src/recall/store.js'
import { makeDreamWorld } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { startServerWorld } from '../server/world.js'

const HISTORY: MessageSpec[] = [
  {
    chatJid: 'web:main',
    content: 'I moved to Porto last month and I love it.',
    timestamp: '2026-11-20T09:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'Porto is lovely.',
    timestamp: '2026-11-20T09:00:05.000Z',
    isBotMessage: true,
  },
  // A stretch of web:main made private with /private on at 10:00 and off at 11:00.
  {
    chatJid: 'web:main',
    content: 'My therapist Dr Quintela says I should rest.',
    timestamp: '2026-11-21T10:30:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'Take care, Quintela sounds wise.',
    timestamp: '2026-11-21T10:30:05.000Z',
    isBotMessage: true,
  },
  {
    chatJid: 'web:main',
    content: 'We decided to use Postgres for Atlas.',
    timestamp: '2026-11-21T12:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'Noted: Postgres.',
    timestamp: '2026-11-21T12:00:05.000Z',
    isBotMessage: true,
  },
  // A whole chat kept out by memory.excludeChats (a pattern).
  {
    chatJid: 'secret:lawyer',
    content: 'My divorce lawyer is Ms Varela, hearing on Friday.',
    timestamp: '2026-11-21T13:00:00.000Z',
  },
  {
    chatJid: 'secret:lawyer',
    content: 'Varela will call you.',
    timestamp: '2026-11-21T13:00:05.000Z',
    isBotMessage: true,
  },
]

const TRACES = /quintela|therapist|varela|lawyer|divorce/i

function notesText(dir: string): string {
  return readdirSync(join(dir, 'notes'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n')
}

describe('private chats', () => {
  it('an excluded chat and a /private stretch never reach notes, cues or the index; the dashboard says so', async () => {
    const api = await startServerWorld({ messages: HISTORY, dreamProvider: createOfflineProvider() })
    const { world, host } = api
    const dreamlane = host.dreamlane
    // memory.excludeChats comes from config; the server world's config is the world's, so set it there.
    world.config.memory.excludeChats.push('secret:*')
    world.clock.set('2026-11-21T10:00:00.000Z')
    expect(await dreamlane.handleChatInput('web:main', '/private on')).toMatch(/^Private from now on/)
    expect(await dreamlane.handleChatInput('web:main', '/private status')).toMatch(
      /^Private since 2026-11-21T10:00/,
    )
    world.clock.set('2026-11-21T11:00:00.000Z')
    expect(await dreamlane.handleChatInput('web:main', '/private off')).toMatch(/^Private stretch ended/)
    world.clock.set('2026-11-21T20:00:00.000Z')

    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('succeeded')
    const text = notesText(world.dir)
    expect(text).toContain('Porto')
    expect(text).toContain('Postgres')
    expect(text).not.toMatch(TRACES)
    for (const query of ['Quintela', 'Varela', 'lawyer', 'therapist'])
      expect(
        await searchIndex({ state: dreamlane.state, paths: world.paths, config: world.config, query }),
      ).toEqual([])
    // The messages DB still holds them: only memory is kept clear.
    expect(dreamlane.messages.listChatMessages('secret:lawyer')).toHaveLength(2)

    const memoryPage = await (await api.fetch('/memory')).text()
    expect(memoryPage).toContain('Kept out of memory')
    expect(memoryPage).toContain('secret:*')
    expect(memoryPage).toMatch(
      /web:main<\/code>\s+private\s+from 2026-11-21T10:00:00.000Z\s+to 2026-11-21T11:00:00.000Z/,
    )
    const chatPage = await (await api.fetch('/chat/secret%3Alawyer')).text()
    expect(chatPage).toContain('excluded from memory')
    expect((await api.json('/api/privacy')).body).toMatchObject({ patterns: ['secret:*'] })
    expect(await dreamlane.handleChatInput('secret:lawyer', '/private on')).toContain('memory.excludeChats')
  })
})

describe('a model dream that tries to write a forgotten fact back', () => {
  it('has it withheld by the write tool, which tells the model why', async () => {
    const world = await makeDreamWorld([
      { chatJid: 'web:main', content: 'My dentist is Dr Sousa.', timestamp: '2026-11-21T09:00:00.000Z' },
    ])
    const offline = world.open()
    await offline.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await offline.forget('Dr Sousa')
    await offline.close()
    const userMd = readFileSync(join(world.paths.memory, 'user.md'), 'utf8')
    const model = world.open({
      provider: createScriptedProvider([
        {
          tool: 'write_file',
          input: {
            path: 'notes/memory/user.md',
            content: `${userMd}\n- **Dentist: Dr Sousa** — restated [[2026-11-21]]\n- Likes green tea. [[2026-11-21]]\n`,
          },
        },
        { text: 'Wrote the dentist back.' },
      ]),
    })
    for (let dream = 0; dream < 3; dream++) {
      world.clock.advanceMs(60_000)
      const run = await model.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
      const write = run.toolCalls.find((call) => call.name === 'write_file')
      expect(write?.preview).toContain('asked dreamlane to forget')
      const after = readFileSync(join(world.paths.memory, 'user.md'), 'utf8')
      expect(after).not.toMatch(/sousa/i)
      expect(after).toContain('Likes green tea.')
    }
    await model.close()
  })
})

describe('recall in a private chat', () => {
  it('records nothing while the chat is private, and again once it is not', async () => {
    const world = await makeDreamWorld()
    writeFileSync(join(world.dir, 'notes/people.md'), '# People\n\n- Maya lives in Porto\n')
    const dreamlane = world.open()
    const sink = recallSinkFor(dreamlane, world.clock)
    const hits = [{ path: 'notes/people.md', line: 3, snippet: 'Maya lives in Porto', score: 3 }]
    const recorded = () => {
      ensureRecallSchema(dreamlane.state)
      return dreamlane.state.prepare('SELECT count(*) FROM recall_events').pluck().get() as number
    }
    dreamlane.setPrivate('web:main', true)
    sink({ chatJid: 'web:main', query: 'where does maya live', hits, at: world.clock.now() })
    expect(recorded()).toBe(0)
    dreamlane.setPrivate('web:main', false)
    sink({ chatJid: 'web:main', query: 'where does maya live', hits, at: world.clock.now() })
    expect(recorded()).toBe(1)
    await dreamlane.close()
  })
})
