import { describe, expect, it } from 'vitest'
import { extractFacts } from '../../../src/model/offline/extract.js'
import { windowMessage } from './facts.js'

describe("extractFacts' cheap gate", () => {
  it('lets through a sentence whose only clue is a day ("Start date is Monday.")', async () => {
    // Said on Friday 2026-11-20: the Monday to come.
    const facts = await extractFacts([windowMessage({ content: 'Start date is Monday.' })], 'UTC')
    expect(facts.map((fact) => `${fact.kind} ${fact.value}`)).toEqual(['plan 2026-11-23'])
  })

  it('still lets nothing through from small talk', async () => {
    expect(await extractFacts([windowMessage({ content: 'Sounds great, thanks so much!' })], 'UTC')).toEqual(
      [],
    )
  })
})
