// Whose "I" a fact is: in a group chat several people say "my sister" and "I'm vegan", and only the owner's
// statements belong in the owner's memory files.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { extractFacts } from '../../../src/model/offline/extract.js'
import type { WindowMessage } from '../../../src/model/offline/types.js'
import { runCli } from '../../helpers/cli.js'
import { windowMessage } from './facts.js'
import { makeTempDir } from '../../helpers/workspace.js'

let counter = 0
function said(root: string, sender: string, content: string, fromMe = false): WindowMessage {
  const ts = new Date(Date.UTC(2026, 10, 23, 9, counter++)).toISOString()
  return windowMessage({ id: `m${counter}`, chat: root, chatName: root, ts, sender, fromMe, content })
}

const keysOf = async (messages: WindowMessage[]) =>
  (await extractFacts(messages, 'UTC')).map((fact) => fact.key).sort()

describe('facts of a group chat', () => {
  const group = (fromMe: boolean) => [
    said('group', 'Sam', "I'm vegan now, so no steak place"),
    said('group', 'Priya', 'I work as a nurse at St James'),
    said('group', 'Alex', 'I live in Leeds these days', fromMe),
  ]

  it('takes only the messages sent from the exporting account when the DB marks them', async () => {
    expect(await keysOf(group(true))).toEqual(['user.city'])
  })

  it('without the mark, takes the person who also talks to the assistant alone', async () => {
    const direct = said('web:main', 'alex', 'my brother Tom is coming too')
    expect(await keysOf([...group(false), direct])).toEqual(['user.city', 'user.relation.brother.tom'])
  })

  it('takes nothing from a group whose owner it cannot tell', async () => {
    expect(await keysOf(group(false))).toEqual([])
  })

  it('takes nothing from a friend alone in an imported chat when the DB marks the owner elsewhere', async () => {
    const friend = said('wa:sam', 'Sam', 'my sister Julia is moving to Berlin next month')
    const owner = said('wa:group', 'Alex', 'I live in Leeds these days', true)
    expect(await keysOf([friend, owner])).toEqual(['user.city'])
  })

  it('still takes a lone person talking with the assistant, marks or not', async () => {
    const user = said('web:main', 'Jo', 'I live in Porto')
    const reply: WindowMessage = { ...said('web:main', 'Assistant', 'Noted.'), role: 'assistant' }
    const elsewhere = said('wa:group', 'Alex', 'my brother Tom is coming too', true)
    expect(await keysOf([user, reply, elsewhere])).toEqual(['user.city', 'user.relation.brother.tom'])
  })

  it('takes everything from a chat only one person writes in, as before', async () => {
    expect(
      await keysOf([said('web:main', 'Sam', "I'm vegan now"), said('web:main', 'Sam', 'I live in Leeds')]),
    ).toEqual(['user.city', 'user.diet'])
  })
})

describe('a WhatsApp group imported with --me, then dreamed', () => {
  it('writes the owner’s facts to user.md and none of the others’', async () => {
    const dir = makeTempDir()
    const workspace = join(dir, 'ws')
    const chat = join(dir, 'chat.txt')
    // Yesterday, as WhatsApp writes a day (dd/mm/yyyy), so the dream's default window holds it.
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10).split('-').reverse().join('/')
    writeFileSync(
      chat,
      [
        `${day}, 09:02 - Sam: my sister Julia is moving to Berlin next month`,
        `${day}, 09:03 - Sam: I'm vegan now btw, so no steak place for the reunion`,
        `${day}, 09:05 - Alex: noted! I live in Leeds these days, so I can host`,
        `${day}, 09:06 - Priya: I work as a nurse at St James, nights this week`,
        `${day}, 09:08 - Alex: my brother Tom is coming too`,
      ].join('\n') + '\n',
    )
    expect((await runCli(['-w', workspace, 'init'])).code).toBe(0)
    const imported = await runCli([
      '-w',
      workspace,
      '--tz',
      'UTC',
      'import',
      chat,
      '--format',
      'whatsapp',
      '--date-order',
      'dmy',
      '--me',
      'Alex',
    ])
    expect(imported.code, imported.stderr).toBe(0)
    const dreamed = await runCli(['-w', workspace, '--tz', 'UTC', 'dream', '--days', '3'])
    expect(dreamed.code, dreamed.stderr).toBe(0)
    const user = readFileSync(join(workspace, 'notes', 'memory', 'user.md'), 'utf8')
    expect(user).toContain('**City: Leeds**')
    expect(user).toContain('**Brother: Tom**')
    for (const other of ['Julia', 'vegan', 'nurse', 'St James']) expect(user).not.toContain(other)
  })
})
