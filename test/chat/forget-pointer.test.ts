// "Don't remember that" and "forget what I just said" in chat: the request points back at the user's last turn,
// is answered with the same preview `/forget` gives for what that turn names, and `/forget confirm` removes it,
// from the notes, the index and later dreams. A real server host (assistant, messages DB, offline dreams).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { storeChatMessage } from '../../src/chat/chat-message.js'
import { PrivacyStore } from '../../src/db/privacy-store.js'
import { searchIndex } from '../../src/fts/search.js'
import { createOfflineProvider } from '../../src/model/offline/engine.js'
import { phrasesOfMessage } from '../../src/privacy/forget-phrases.js'
import { startServerWorld, type ServerWorld } from '../server/world.js'

const DENTIST = 'My dentist is Dr Sousa, on Rua Formosa.'
const PORTO = 'I moved to Porto last month and I love it.'
const MENTION = /dentist|sousa|formosa/i

function notesText(api: ServerWorld): string {
  const notes = api.world.paths.notes
  return readdirSync(notes, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n')
}

async function world(): Promise<ServerWorld> {
  return startServerWorld({ messages: [], dreamProvider: createOfflineProvider() })
}

async function say(api: ServerWorld, text: string): Promise<string> {
  return (await api.host.assistant.send('web:main', text)).reply.content
}

async function dream(api: ServerWorld): Promise<void> {
  api.world.clock.advanceMs(60_000)
  const run = await api.host.dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
  expect(run.status).toBe('succeeded')
}

describe('a forget request that points back at the last turn', () => {
  it('"don\'t remember that" previews what the last message named, as /forget does, and confirm removes it for good', async () => {
    const api = await world()
    await say(api, PORTO)
    await say(api, DENTIST)
    await dream(api)
    expect(notesText(api)).toMatch(MENTION)
    const before = notesText(api)

    const reply = await say(api, "don't remember that")
    // What the message names, and the relation its fact is keyed by (user.relation.dentist): the day's topics
    // say "dentist" without the name.
    const what = [...phrasesOfMessage(DENTIST), 'dentist'].join(', ')
    const preview = await api.host.dreamlane.previewForget(what)
    expect(preview.items.length).toBeGreaterThan(0)
    expect(reply).toContain(`That is your last message: “${DENTIST}”`)
    expect(reply).toContain(preview.message)
    expect(reply).toContain('Reply `/forget confirm` to remove it')
    // The preview names only what mentions it, and nothing is removed yet.
    for (const item of preview.items) expect(item.text).toMatch(MENTION)
    expect(notesText(api)).toBe(before)

    expect(await say(api, '/forget confirm')).toMatch(/^Forgotten \(forget-/)
    expect(notesText(api)).not.toMatch(MENTION)
    expect(notesText(api)).toContain('Porto')
    const { state } = api.host.dreamlane
    const hits = await searchIndex({
      state,
      paths: api.world.paths,
      config: api.world.config,
      query: 'Sousa',
    })
    expect(hits).toEqual([])
    // The messages DB still holds it; the next dream reads past it.
    await dream(api)
    expect(notesText(api)).not.toMatch(MENTION)
  }, 60_000)

  it('"forget what I just said" takes the whole turn, and never a secret into the tombstone', async () => {
    const api = await world()
    const { dreamlane } = api.host
    const at = (minute: number) => new Date(Date.parse('2026-11-21T19:00:00.000Z') + minute * 60_000)
    // Two messages in a row, then the request: as a host that stores the chat itself (no replies between).
    for (const [minute, content] of [
      [0, 'Booked the cleaning with Dr Sousa for Friday.'],
      [1, 'the clinic door code is 4455 and the receptionist is Marta Lopes.'],
    ] as const)
      storeChatMessage(dreamlane.messages, {
        ...{ chatJid: 'web:main', role: 'user', sender: 'user', senderName: 'Alex', content },
        timestamp: at(minute).toISOString(),
      })
    const reply = (await dreamlane.handleChatInput('web:main', 'Forget what I just said.')) ?? ''
    expect(reply).toMatch(/^That is your last 2 messages: “Booked the cleaning with Dr Sousa/)
    expect(reply).not.toContain('4455')
    const done = await dreamlane.handleChatInput('web:main', '/forget confirm')
    expect(done).toMatch(/^Forgotten \(forget-/)
    const [tombstone] = new PrivacyStore(dreamlane.state).listTombstones()
    expect(tombstone?.phrases).toEqual(expect.arrayContaining(['dr sousa', 'marta lopes']))
    expect(JSON.stringify(tombstone)).not.toContain('4455')
  })

  it('"please forget about my dentist" is previewed and confirmed like /forget my dentist', async () => {
    const api = await world()
    await say(api, DENTIST)
    await dream(api)
    const reply = await say(api, 'please forget about my dentist')
    expect(reply).toContain((await api.host.dreamlane.previewForget('my dentist')).message)
    expect(await say(api, '/forget confirm')).toMatch(/^Forgotten \(forget-/)
    expect(notesText(api)).not.toMatch(/dentist|sousa/i)
  }, 60_000)

  it('asks what to forget when the last turn was a command, or there is none', async () => {
    const api = await world()
    expect(await say(api, 'forget that')).toMatch(/^What should I forget\?/)
    await say(api, DENTIST)
    await say(api, '/dream status')
    expect(await say(api, "don't remember that")).toMatch(/^What should I forget\?/)
    expect(await say(api, '/forget confirm')).toContain('No forget is waiting')
  })
})
