import { describe, expect, it } from 'vitest'
import { extractFacts } from '../../../src/model/offline/extract.js'
import { windowMessage } from './facts.js'

// Said on Friday 2026-11-20: "Wednesday" is 2026-11-25, "Thursday" 2026-11-26.
const said = (contents: string[], days: string[] = []) =>
  contents.map((content, at) =>
    windowMessage({
      id: `m${at}`,
      content,
      ts: `${days[at] ?? '2026-11-20'}T10:0${at}:00.000Z`,
    }),
  )

async function plans(contents: string[], days?: string[]): Promise<string[]> {
  const facts = await extractFacts(said(contents, days), 'UTC')
  return facts.map((fact) => `${fact.key} = ${fact.value}${fact.previous ? ` (was ${fact.previous})` : ''}`)
}

describe('a day put right amends the plan stated just before it', () => {
  it("replaces the plan of its own message: the slip is never the plan's day", async () => {
    expect(await plans(['the vet appointment is on the 3rd. no wait, the 4th'])).toEqual([
      'plan.vet-appointment = 2026-12-04',
    ])
  })

  it("changes the plan of the user's message before it, the same day", async () => {
    expect(await plans(['dinner with the Okafors is on Wednesday', 'sorry, I meant Thursday'])).toEqual([
      'plan.dinner = 2026-11-25',
      'plan.dinner = 2026-11-26 (was 2026-11-25)',
    ])
  })

  it('amends nothing when no plan comes just before it, or the plan was said another day', async () => {
    expect(await plans(['sorry, I meant Thursday'])).toEqual([])
    expect(
      await plans(['dinner with the Okafors is on Wednesday', 'thanks!', 'sorry, I meant Thursday']),
    ).toEqual(['plan.dinner = 2026-11-25'])
    expect(
      await plans(
        ['dinner with the Okafors is on Wednesday', 'sorry, I meant Thursday'],
        ['2026-11-19', '2026-11-20'],
      ),
    ).toEqual(['plan.dinner = 2026-11-25'])
  })
})

describe('a message that ends a subject, then says what came after', () => {
  it('keeps what came after, as the change from what ended', async () => {
    const facts = await extractFacts(
      said(["I've given up on being vegan. vegetarian again, I missed cheese"]),
      'UTC',
    )
    expect(facts.map((fact) => [fact.key, fact.value, fact.previous])).toEqual([
      ['user.diet', 'vegetarian', 'vegan'],
    ])
  })

  it('still keeps the first of two values', async () => {
    const facts = await extractFacts(said(["I'm vegan. well, vegetarian now"]), 'UTC')
    expect(facts.map((fact) => fact.value)).toEqual(['vegan'])
  })
})
