import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAssistant } from '../../src/chat/assistant.js'
import { questionTerms } from '../../src/chat/quote-answer.js'
import type { RecallEvent } from '../../src/chat/recall-hook.js'
import { createScriptedProvider } from '../../src/model/scripted.js'
import { makeDreamWorld, NOW } from '../helpers/dream-world.js'

const USER_MD = '# User\n\n- Lives in Porto since October 2026.\n- Prefers green tea over coffee.\n'
const PROJECT_MD = '# Projects\n\n- Atlas: decided to use Postgres (2026-11-21).\n'

async function world() {
  const w = await makeDreamWorld()
  writeFileSync(join(w.paths.memory, 'user.md'), USER_MD)
  writeFileSync(join(w.paths.memory, 'project.md'), PROJECT_MD)
  return w
}

describe('the assistant host', () => {
  it('stores the question and a reply that quotes the best note lines with their paths (offline)', async () => {
    const w = await world()
    const dreamlane = w.open()
    const recalls: RecallEvent[] = []
    const assistant = createAssistant({ dreamlane, clock: w.clock, onRecall: (event) => recalls.push(event) })

    const turn = await assistant.send('web:main', 'Where does the user live? Porto?')

    expect(turn.engine).toBe('quote')
    expect(turn.reply.content).toContain('notes/memory/user.md:3')
    expect(turn.reply.content).toContain('Lives in Porto since October 2026.')
    expect(turn.reply.content).not.toContain('Postgres')
    const stored = dreamlane.messages.listChatMessages('web:main').slice(-2)
    expect(stored.map((m) => [m.id, m.content, m.isBotMessage])).toEqual([
      [turn.message.id, 'Where does the user live? Porto?', false],
      [turn.reply.id, turn.reply.content, true],
    ])
    // The offline answer searched through search_workspace, so the interactive search is a recall event.
    expect(recalls).toHaveLength(1)
    expect(recalls[0]?.chatJid).toBe('web:main')
    expect(recalls[0]?.hits.map((hit) => hit.path)).toContain('notes/memory/user.md')
    await dreamlane.close()
  })

  it('says so when nothing in the notes matches', async () => {
    const w = await world()
    const dreamlane = w.open()
    const turn = await createAssistant({ dreamlane, clock: w.clock }).send('web:main', 'zeppelins?')
    expect(turn.reply.content).toBe('Nothing in my notes matches “zeppelins” yet.')
    await dreamlane.close()
  })

  it('answers slash commands before any model, from the dreamlane sender', async () => {
    const w = await world()
    const dreamlane = w.open()
    const model = createScriptedProvider([{ fail: 'the model must not be asked' }])
    const assistant = createAssistant({ dreamlane, clock: w.clock, provider: model })

    const turn = await assistant.send('web:main', '/dream status')

    expect(turn.engine).toBe('command')
    expect(turn.note).toBeNull()
    expect(turn.reply.content).toContain('No dream has run yet.')
    expect(turn.reply.sender).toBe('dreamlane')
    await dreamlane.close()
  })

  it('/dream 2 queues a dream whose summary lands in the same chat after the reply', async () => {
    const w = await world()
    // Time moves (1 ms per reading), as it does between a chat turn and the end of a dream.
    let at = Date.parse(NOW)
    const clock = { now: () => new Date((at += 1)) }
    const provider = createScriptedProvider([
      { tool: 'write_file', input: { path: 'notes/memory/user.md', content: `${USER_MD}- Dreamt.\n` } },
      { text: 'ok' },
    ])
    const dreamlane = w.open({ provider, clock })
    const turn = await createAssistant({ dreamlane, clock }).send('web:main', '/dream 2')
    expect(turn.reply.content).toBe('Dream queued in the background for the last 2 day(s).')
    const queued = dreamlane.runs.latest()
    await dreamlane.close()
    // dreamlane.close() closed the DBs: read the chat back through a fresh handle.
    const reopened = w.open()
    const run = reopened.runs.get(queued?.id ?? '')
    expect(run.status).toBe('succeeded')
    const messages = reopened.messages.listChatMessages('web:main')
    const ids = messages.map((m) => m.id)
    expect(ids.indexOf(`dream-summary-${run.id}`)).toBeGreaterThan(ids.indexOf(turn.reply.id))
    await reopened.close()
  })

  it('answers with the model using read-only tools; a write attempt is refused and changes nothing', async () => {
    const w = await world()
    const dreamlane = w.open()
    const recalls: RecallEvent[] = []
    const model = createScriptedProvider([
      { tool: 'search_workspace', input: { query: 'tea' } },
      { tool: 'write_file', input: { path: 'notes/memory/user.md', content: 'overwritten' } },
      { text: 'You prefer green tea (notes/memory/user.md).' },
    ])
    const assistant = createAssistant({
      dreamlane,
      clock: w.clock,
      provider: model,
      onRecall: (event) => recalls.push(event),
    })

    const turn = await assistant.send('web:work', 'What do I drink?')

    expect(turn.engine).toBe('model')
    expect(turn.reply.content).toBe('You prefer green tea (notes/memory/user.md).')
    expect(readFileSync(join(w.paths.memory, 'user.md'), 'utf8')).toBe(USER_MD)
    expect(recalls.map((event) => [event.chatJid, event.query])).toEqual([['web:work', 'tea']])
    await dreamlane.close()
  })

  it('falls back to quoting notes, with a note, when the model fails', async () => {
    const w = await world()
    const dreamlane = w.open()
    const assistant = createAssistant({
      dreamlane,
      clock: w.clock,
      provider: createScriptedProvider([{ fail: 'HTTP 529 overloaded' }]),
    })
    const turn = await assistant.send('web:main', 'Which database for Atlas?')
    expect(turn.engine).toBe('quote')
    expect(turn.note).toContain('HTTP 529 overloaded')
    expect(turn.reply.content).toContain('notes/memory/project.md:3')
    await dreamlane.close()
  })

  it.each([
    ['web:main', '   ', 'message text must be 1 to'],
    ['web:main', 'x'.repeat(8_001), 'message text must be 1 to'],
    ['dream:manual:web:main:1', 'hi', 'reserved for dream channels'],
    ['', 'hi', 'chat id must be'],
  ])('refuses chat %j / text of %#, storing nothing', async (jid, text, message) => {
    const w = await world()
    const dreamlane = w.open()
    const before = dreamlane.messages.listChats().length
    await expect(createAssistant({ dreamlane, clock: w.clock }).send(jid, text)).rejects.toMatchObject({
      code: 'REQUEST_INVALID',
      message: expect.stringContaining(message),
    })
    expect(dreamlane.messages.listChats()).toHaveLength(before)
    await dreamlane.close()
  })

  it('runs turns of one chat in order, each reply right after its question, even with a frozen clock', async () => {
    const w = await world()
    const dreamlane = w.open()
    const assistant = createAssistant({ dreamlane, clock: w.clock })
    const turns = await Promise.all(
      ['Porto?', 'Postgres?', 'tea?'].map((text) => assistant.send('web:main', text)),
    )
    const expected = turns.flatMap((turn) => [turn.message.id, turn.reply.id])
    expect(
      assistant
        .history('web:main')
        .map((m) => m.id)
        .slice(-6),
    ).toEqual(expected)
    expect(new Set(assistant.history('web:main').map((m) => m.timestamp)).size).toBe(
      assistant.history('web:main').length,
    )
    await dreamlane.close()
  })

  it('history is the newest messages, oldest first, however far back the chat goes', async () => {
    const w = await world()
    const dreamlane = w.open()
    const day = 86_400_000
    const ages = [900, 400, 40, 9, 2, 0.5, 0.01]
    dreamlane.messages.upsertChat('web:old', null)
    dreamlane.messages.insertMessages(
      ages.map((age, i) => ({
        id: `m${i}`,
        chatJid: 'web:old',
        content: `age ${age}`,
        timestamp: new Date(Date.parse(NOW) - age * day).toISOString(),
      })),
    )
    const assistant = createAssistant({ dreamlane, clock: w.clock })
    expect(assistant.history('web:old', 3).map((m) => m.content)).toEqual(['age 2', 'age 0.5', 'age 0.01'])
    expect(assistant.history('web:old', 6).map((m) => m.content)).toEqual([
      'age 400',
      'age 40',
      'age 9',
      'age 2',
      'age 0.5',
      'age 0.01',
    ])
    expect(assistant.history('web:old', 50)).toHaveLength(7)
    expect(assistant.history('web:none', 5)).toEqual([])
    await dreamlane.close()
  })

  it('keeps topic words of a question and drops fillers', () => {
    expect(questionTerms("What's the user's favourite tea, and where do they live in 2026?")).toEqual([
      'user',
      'favourite',
      'tea',
      'live',
      '2026',
    ])
    expect(questionTerms('what do you know?')).toEqual([])
  })
})
