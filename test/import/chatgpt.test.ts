import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir, makeWorkspace } from '../helpers/workspace.js'
import { fixture, readDb, runImport, writeExportZip } from './world.js'

const CONVERSATIONS = fixture('conversations.json')

describe('ChatGPT import', () => {
  it('keeps the current branch as the chat and skips system, tool, tool-call and reasoning nodes', async () => {
    const ws = makeWorkspace()
    const result = await runImport(ws, CONVERSATIONS)
    expect(result).toMatchObject({
      format: 'chatgpt',
      chats: 5,
      messages: 10,
      skipped: 4,
      duplicates: 0,
      invalid: 0,
    })
    const { messages, chats } = readDb(ws.paths.messagesDb)
    const lisbon = messages.filter((m) => m.chat_jid === 'chatgpt:conv-lisbon')
    expect(lisbon.map((m) => [m.id, m.sender, m.content, m.is_from_me, m.is_bot_message])).toEqual([
      ['u1', 'user', 'Plan a 3-day trip to Lisbon in May. I love seafood.', 1, 0],
      ['a1-new', 'assistant', 'Day 1: Alfama and the Castelo. Day 2: Belém. Day 3: Cascais.', 0, 1],
      ['u2', 'user', '[image]\nWhat is this dish?', 1, 0], // multimodal: the image as a marker, then its text
      ['a2', 'assistant', 'That is bacalhau à brás, a salt-cod dish.', 0, 1],
    ])
    expect(lisbon.map((m) => m.timestamp)).toEqual([
      '2025-05-01T10:00:00.000Z',
      '2025-05-01T10:01:40.000Z',
      '2025-05-01T10:03:20.000Z',
      '2025-05-01T10:03:40.000Z',
    ])
    expect(chats.find((c) => c.jid === 'chatgpt:conv-lisbon')?.name).toBe('Trip to Lisbon')
  })

  it('turns regenerated answers and edited questions into branch chats rooted at the conversation', async () => {
    const ws = makeWorkspace()
    await runImport(ws, CONVERSATIONS)
    const { messages, branches } = readDb(ws.paths.messagesDb)
    expect(branches).toEqual([
      {
        branch_id: 'chatgpt-branch:conv-gift:b-a1a',
        chat_jid: 'chatgpt:conv-gift:b-a1a',
        root_chat_jid: 'chatgpt:conv-gift',
        parent_branch_id: 'chatgpt-branch:conv-gift:b-u1a', // a regeneration inside the edited branch
        created_at: '2025-05-02T10:00:10.000Z',
      },
      {
        branch_id: 'chatgpt-branch:conv-gift:b-u1a',
        chat_jid: 'chatgpt:conv-gift:b-u1a',
        root_chat_jid: 'chatgpt:conv-gift',
        parent_branch_id: null,
        created_at: '2025-05-02T10:00:00.000Z',
      },
      {
        branch_id: 'chatgpt-branch:conv-lisbon:a1-old',
        chat_jid: 'chatgpt:conv-lisbon:a1-old',
        root_chat_jid: 'chatgpt:conv-lisbon',
        parent_branch_id: null,
        created_at: '2025-05-01T10:00:10.000Z',
      },
    ])
    const contentOf = (jid: string) => messages.filter((m) => m.chat_jid === jid).map((m) => m.content)
    // A branch holds only what follows its fork; the shared start stays in the conversation's chat.
    expect(contentOf('chatgpt:conv-lisbon:a1-old')).toEqual(['Here is a 5-day plan starting in Sintra.'])
    expect(contentOf('chatgpt:conv-gift')).toEqual([
      'Gift ideas for my sister Mia, who turns 30 and loves climbing?',
      'A climbing gym membership.', // create_time null: update_time is used
    ])
    expect(contentOf('chatgpt:conv-gift:b-u1a')).toEqual(['Gift ideas for my sister Mia?', 'Maybe a scarf.'])
    expect(contentOf('chatgpt:conv-gift:b-a1a')).toEqual(['A book or a plant.'])
  })

  it('reads conversations.json inside the export zip and from an extracted export folder', async () => {
    const dir = makeTempDir()
    const zip = await writeExportZip(join(dir, 'chatgpt-export.zip'), {
      'chat.html': '<html></html>',
      'user.json': '{"id":"user-1"}',
      'conversations.json': readFileSync(CONVERSATIONS),
    })
    const fromZip = makeWorkspace()
    expect(await runImport(fromZip, zip)).toMatchObject({ format: 'chatgpt', chats: 5, messages: 10 })
    const folder = join(dir, 'extracted')
    mkdirSync(folder)
    cpSync(CONVERSATIONS, join(folder, 'conversations.json'))
    const fromFolder = makeWorkspace()
    expect(await runImport(fromFolder, folder)).toMatchObject({ format: 'chatgpt', chats: 5, messages: 10 })
    expect(readDb(fromFolder.paths.messagesDb)).toEqual(readDb(fromZip.paths.messagesDb))
  })

  it('reports broken conversations by number and imports the others', async () => {
    const dir = makeTempDir()
    const file = join(dir, 'conversations.json')
    const good = (JSON.parse(readFileSync(CONVERSATIONS, 'utf8')) as unknown[])[0]
    writeFileSync(
      file,
      `[{"title": "cut", "mapping": {"x": tru}}, {"title": "no mapping"}, ${JSON.stringify(good)}]`,
    )
    const ws = makeWorkspace()
    const result = await runImport(ws, file)
    expect(result).toMatchObject({ chats: 2, messages: 5, invalid: 2 })
    expect(result.problems).toEqual([
      { item: 'conversation 1', reason: expect.stringMatching(/^invalid JSON/) },
      { item: 'conversation 2', reason: 'no "mapping" (not a ChatGPT conversation?)' },
    ])
  })

  it('re-importing the same export adds nothing', async () => {
    const ws = makeWorkspace()
    await runImport(ws, CONVERSATIONS)
    expect(await runImport(ws, CONVERSATIONS)).toMatchObject({ chats: 5, messages: 0, duplicates: 10 })
    expect(readDb(ws.paths.messagesDb).messages).toHaveLength(10)
  })
})
