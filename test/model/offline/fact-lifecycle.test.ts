// Facts that change over weeks and months (test/fixtures/fact-lifecycle.json): jobs that end on a date, moves
// back, a breakup and a reconciliation, plans moved, called off or put right. Each chat is dreamed once; its memory
// files must hold the facts checked by hand, no more and no fewer, with each known gap listed by name.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dreamChat, type FixtureChat } from './chat-fixture.js'
import { keyedFacts } from './world.js'

interface Chat extends FixtureChat {
  about: string
  /** Every keyed fact a careful reader holds at the end, struck-out values marked '(superseded)'. */
  facts: string[]
  /** Of `facts`, those the engine does not hold yet. */
  missed?: string[]
  /** Held by the engine though the chat ended them. */
  stale?: string[]
  /** Held by the engine, and false (a wrong value included). */
  wrong?: string[]
  /** Held by the engine with the right value under another subject's key (a moved plan as a new one). */
  misfiled?: string[]
}

const FIXTURE = join(import.meta.dirname, '../../fixtures/fact-lifecycle.json')
const { chats } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { chats: Record<string, Chat> }

describe('facts that change: what memory holds after a dream (fact-lifecycle.json)', () => {
  it.each(Object.entries(chats))('%s', async (name, chat) => {
    const held = keyedFacts(await dreamChat(chat))
    if (process.env.DREAMLANE_PRINT_FACTS) console.log(JSON.stringify({ [name]: held }))
    const missed = new Set(chat.missed)
    const expected = [
      ...chat.facts.filter((fact) => !missed.has(fact)),
      ...(chat.stale ?? []),
      ...(chat.wrong ?? []),
      ...(chat.misfiled ?? []),
    ]
    expect(held).toEqual(expected.sort())
  })

  it('lists gaps apart from the facts: a missed fact is one of them, a stale, wrong or misfiled one is not', () => {
    for (const chat of Object.values(chats)) {
      for (const fact of chat.missed ?? []) expect(chat.facts).toContain(fact)
      for (const fact of [...(chat.stale ?? []), ...(chat.wrong ?? []), ...(chat.misfiled ?? [])])
        expect(chat.facts).not.toContain(fact)
    }
  })
})
