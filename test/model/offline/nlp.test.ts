import { afterEach, describe, expect, it } from 'vitest'
import { bulkMatchIndexed, compromiseBulkMatch, nlp } from '../../../src/model/offline/nlp.js'

type BulkMatch = typeof bulkMatchIndexed
const sweepMethods = nlp.methods() as { one: { bulkMatch: BulkMatch } }

// Contractions, questions, names, places, dates, numbers, money, hyphens, quotes, lists and several sentences.
const SENTENCES = [
  'The Atlas launch is on December 4.',
  "I'm Maya, and I've been working at Fernwood Labs since 2019.",
  'Can you remind me to call Dr. Okafor about the MRI results on Tuesday?',
  'We decided to go with Postgres over Mongo — the team agreed, finally.',
  "My sister Ana moved to Porto last spring; she's a nurse at St Mary's Hospital.",
  'Booked 3 tickets for $45.50 each, flight leaves at 6:30am from JFK.',
  'I’m planning a ring-toss tournament for the shelter’s fundraiser next weekend.',
  '"Don\'t forget the cake," Tom said. We won\'t!',
  'Eggs, flour, sugar and two cups of oat milk.',
  'Honestly I would have gone if it had not rained so hard yesterday.',
  'She quickly ran home, then slowly walked back to the old red barn.',
  'Lena booked the dashboard in Berlin with Tomas; 76 people, next Monday.',
  'ok',
  'Running late!! be there in 10 mins lol',
  'The Women in Tech meetup was moved from Dec 4 to Dec 11, not Dec 18.',
]

// A net of the caller's own, as `match` and `matchOne` sweep it: needs, wants and a pattern with no hook.
const QUERIES = nlp.buildNet([
  { match: '#Person' },
  { match: '(#Noun|#Adjective) #Noun' },
  { match: 'the [#Noun]', group: 0 },
  { match: '#Verb #Adverb? #Preposition' },
  { match: '.' },
])

describe('bulkMatchIndexed', () => {
  afterEach(() => {
    sweepMethods.one.bulkMatch = bulkMatchIndexed
  })

  it('is the sweep compromise runs once the module is loaded', () => {
    expect(sweepMethods.one.bulkMatch).toBe(bulkMatchIndexed)
  })

  it.each(SENTENCES)('finds what compromise’s own sweep finds, in its order: %s', (sentence) => {
    let sweeps = 0
    // Every sweep of a parse (the tagger's and the chunker's nets) and of a query (match, matchOne) is run both ways.
    sweepMethods.one.bulkMatch = (document, net, methods, options) => {
      sweeps += 1
      const found = bulkMatchIndexed(document, net, methods, options)
      expect(found).toEqual(compromiseBulkMatch(document, net, methods, options))
      return found
    }
    const doc = nlp(sentence)
    doc.match(QUERIES)
    doc.matchOne(QUERIES)
    expect(sweeps).toBe(4)
  })

  it('sweeps a net where two patterns share a match string as compromise does: the first met wins', () => {
    const built = nlp.buildNet([{ match: '#Noun' }, { match: '#Verb' }]) as unknown as {
      hooks: Record<string, { match: string }[]>
    }
    const noun = built.hooks['#Noun']?.[0] as { match: string }
    const verb = built.hooks['#Verb']?.[0] as { match: string }
    // A hand-made net (buildNet never makes one): the verb pattern under the noun pattern's string, listed first.
    const net = { hooks: { '#Verb': [{ ...verb, match: noun.match }], '#Noun': [noun] }, always: [] }
    const doc = nlp('Maya booked the flat.')
    const methods = nlp.methods() as Parameters<typeof bulkMatchIndexed>[2]
    const args = [doc.docs, net, methods, {}] as unknown as Parameters<typeof bulkMatchIndexed>
    const found = bulkMatchIndexed(...args)
    expect(found).toEqual(compromiseBulkMatch(...args))
    expect(found.map((match) => match.pointer.slice(0, 3))).toEqual([[0, 1, 2]])
  })
})
