import { describe, expect, it } from 'vitest'
import { classifySentence } from '../../../src/model/offline/classify.js'

const headlines = (text: string): string[] =>
  classifySentence({
    text,
    ts: '2026-11-20T10:00:00.000Z',
    day: '2026-11-20',
    messageId: 'm1',
    chat: 'web:main',
    timeZone: 'UTC',
  })
    .filter((fact) => fact.kind === 'relation')
    .map((fact) => `${fact.key} ${fact.headline}`)

describe('relations: couples apart, lists of names, names said after the role', () => {
  it.each([
    // A couple living apart is still married: the role keeps its place, marked.
    ["We're separated, my husband Tom and I.", ['user.relation.husband Husband: Tom (separated)']],
    ["I'm separated from my wife Ana.", ['user.relation.wife Wife: Ana (separated)']],
    ["We're getting divorced, my wife Ana and I.", ['user.relation.wife Wife: Ana (separated)']],
    // A parting ends the role: kept beside whoever holds it next.
    ['We got divorced last year, my husband Tom and I.', ['user.relation.exhusband.tom Ex-husband: Tom']],
    ['My ex Mark texted me again.', ['user.relation.ex.mark Ex: Mark']],
    ['My ex, Mark, called.', ['user.relation.ex.mark Ex: Mark']],
    // "and" after a singular role starts the next person, who is not (known to be) one.
    ['My friend Sam and Ana came over last night.', ['user.relation.friend.sam Friend: Sam']],
    ['My sister Mary and Jane went shopping.', ['user.relation.sister.mary Sister: Mary']],
    // A plural role lists each of them.
    [
      'My friends Sam and Ana came over.',
      ['user.relation.friend.sam Friend: Sam', 'user.relation.friend.ana Friend: Ana'],
    ],
    [
      "I've got two kids, Mia and Noah.",
      ['user.relation.kid.mia Kid: Mia', 'user.relation.kid.noah Kid: Noah'],
    ],
    [
      'We have three dogs: Rex, Bo and Max.',
      ['user.relation.dog.rex Dog: Rex', 'user.relation.dog.bo Dog: Bo', 'user.relation.dog.max Dog: Max'],
    ],
    [
      'Our puppies Coco and Bean are a handful.',
      ['user.relation.puppy.coco Puppy: Coco', 'user.relation.puppy.bean Puppy: Bean'],
    ],
    // Named when they arrived, or after "is".
    ['We adopted a kitten called Luna.', ['user.relation.kitten.luna Kitten: Luna']],
    ['We named the puppy Biscuit.', ['user.relation.puppy.biscuit Puppy: Biscuit']],
    ['My new boss is Priya.', ['user.relation.boss New boss: Priya']],
    ['My brother is Tom.', ['user.relation.brother.tom Brother: Tom']],
  ])('%s', (text, expected) => {
    expect(headlines(text)).toEqual(expected)
  })

  it.each([
    'My friends are Canadian.',
    'My mom is German.',
    "My brother is Tom's age.",
    'My friends Sam are here.',
    'I called my mom Sunday.',
    'We named the project Atlas.',
  ])('names no one: %s', (text) => {
    expect(headlines(text)).toEqual([])
  })
})

describe('a standing fact that ends', () => {
  it('strikes the old diet and job when the user says they no longer hold', async () => {
    const { makeDreamWorld } = await import('./world.js')
    const said = [
      ["I'm vegetarian and I work as a nurse.", '2026-11-20T09:00:00.000Z'],
      ["I'm not vegetarian anymore, and I'm no longer a nurse.", '2026-11-22T09:00:00.000Z'],
    ]
    const world = await makeDreamWorld({
      days: 5,
      messages: said.map(([content, timestamp]) => ({
        chatJid: 'web:main',
        content: content!,
        timestamp: timestamp!,
      })),
    })
    await world.dream()
    const user = world.read('notes/memory/user.md')
    expect(user).toMatch(/~~\*\*Diet: vegetarian\*\* — .*~~ — superseded 2026-11-22 → none/)
    expect(user).toContain('**Diet: no longer vegetarian**')
    expect(user).toMatch(/~~\*\*Job: nurse\*\* — .*~~ — superseded 2026-11-22 → none/)
    expect(user).toContain('**Job: none (no longer nurse)**')
  })
})
