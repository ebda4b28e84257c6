import { describe, expect, it } from 'vitest'
import { nounPhrases } from '../../../src/model/offline/noun-phrases.js'

describe('nounPhrases', () => {
  it.each([
    ['The Atlas launch is on December 4.', ['The Atlas launch', 'December 4']],
    ['Planning a trip there next month.', ['a trip', 'next month']],
    ['Yep, I’m hiking with some buddies this weekend.', ['some buddies', 'weekend']],
    ['Three times a week; it keeps us on track.', ['Three times', 'week', 'track']],
    [
      'I’m planning a ring-toss tournament for the shelter’s fundraiser.',
      ['a ring-toss tournament', 'the shelter’s fundraiser'],
    ],
    ['Give my friend our money.', ['my friend', 'our money']],
    ['Last week I had a crazy game - crazy intense!', ['Last week', 'a crazy game']],
    ['It’ll be fun, they’ve said.', []],
  ])('%s → %j', (sentence, phrases) => {
    expect(nounPhrases(sentence)).toEqual(phrases)
  })

  it('finds none in a sentence without a noun', () => {
    expect(nounPhrases('Wow, so cool!')).toEqual([])
  })
})
