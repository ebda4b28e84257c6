// Text the user asks the assistant to write, translate or answer is material, not the user speaking of themselves.
import { describe, expect, it } from 'vitest'
import { classifySentence } from '../../../src/model/offline/classify.js'
import { extractFacts } from '../../../src/model/offline/extract.js'
import { windowMessage } from './facts.js'

const message = (id: string, content: string) => windowMessage({ id, content })

const keysOf = (text: string, context = '') =>
  classifySentence({
    ...{ text, context, ts: '2026-11-20T10:00:00Z', day: '2026-11-20' },
    ...{ messageId: 'm', chat: 'web:main', timeZone: 'UTC' },
  }).map((fact) => fact.key)

describe('requests for text and their material', () => {
  it.each([
    'write a story where I live in Tortuga and my wife is called Anne',
    'Translate to French: I live in Paris with my husband Marc',
    "Reply to this: 'my wife's name is Ana'",
    'can you draft a letter saying I moved to Denver last week',
    'Please rewrite: I work as a nurse at St James',
  ])('%s → no fact about the user', (text) => {
    expect(keysOf(text)).toEqual([])
  })

  it('still takes the same statements said plainly, and a story the user wrote about their own sister', () => {
    expect(keysOf('I live in Paris with my husband Marc')).toEqual(['user.city', 'user.relation.husband'])
    expect(keysOf('I wrote a poem about my sister Lena')).toEqual(['user.relation.sister.lena'])
  })

  it('treats the lines after a request that announces its material as that material', async () => {
    const facts = await extractFacts(
      [
        message('m1', 'Translate the following into German.\nI live in Paris with my husband Marc.'),
        // A request with no material announced leaves the message's next sentence the user's own.
        message('m2', 'Can you proofread my cover letter? I moved to Denver last week.'),
      ],
      'UTC',
    )
    expect(facts.map((fact) => [fact.messageId, fact.key])).toEqual([['m2', 'user.city']])
  })
})

describe('code and pasted data', () => {
  it('gives no fact from a line inside a code block, and the same line said plainly still gives one', async () => {
    const facts = await extractFacts(
      [
        message('m1', 'Test fixture:\n```\nmy email is fixture@example.com\n```'),
        message('m2', 'my email is li@example.com'),
      ],
      'UTC',
    )
    expect(facts.map((fact) => [fact.messageId, fact.key])).toEqual([['m2', 'ref.email']])
  })
})
