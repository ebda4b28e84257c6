import { describe, expect, it } from 'vitest'
import { dayTopics } from '../../../src/model/offline/day-topics.js'
import { termsOf, WordWeights } from '../../../src/model/offline/word-weights.js'
import type { WindowMessage } from '../../../src/model/offline/types.js'
import { windowMessage } from './facts.js'

/** A night's window: the day's own messages are all the weights have seen. */
function night(said: [sender: string, content: string][]): {
  messages: WindowMessage[]
  weights: WordWeights
} {
  const messages = said.map(([sender, content], index) => windowMessage({ id: `m${index}`, sender, content }))
  const weights = new WordWeights()
  for (const message of messages) weights.add(termsOf(message.content))
  return { messages, weights }
}

describe('dayTopics over a night’s window', () => {
  const { messages, weights } = night([
    ['Joanna', 'Hey Nate! Great news, I finished the screenplay draft last night, so excited.'],
    ['Nate', 'Awesome Joanna! Great to hear. The turtles say hi, they loved the new tank.'],
    ['Joanna', 'Haha Nate, great turtles. The screenplay has a road trip in it, amazing right?'],
    ['Nate', 'Sounds amazing Joanna, always great. I cleaned the turtles tank today.'],
  ])

  it('names what the day was about, not those talking or how they cheered', () => {
    const topics = dayTopics(messages, weights)
    expect(topics).toEqual(expect.arrayContaining(['screenplay', 'turtles']))
    for (const word of ['Joanna', 'Nate', 'great', 'amazing', 'awesome', 'excited', 'always', 'sounds'])
      expect(topics).not.toContain(word)
  })

  it('still names someone the day is about who is not in the chat', () => {
    const other = night([
      ['Li', 'My sister Ines called, Ines is moving to Porto.'],
      ['Assistant', 'How lovely that Ines is moving closer.'],
    ])
    expect(dayTopics(other.messages, other.weights)).toContain('Ines')
  })
})
