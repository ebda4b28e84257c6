import { describe, expect, it } from 'vitest'
import { condenseSentence, withoutOpener } from '../../../src/model/offline/condense.js'

describe('condenseSentence', () => {
  it.each(['Thanks so much!', "That's so awesome!", 'Hey Gina!', 'Sounds like a plan.', '/dream 7'])(
    'drops small talk and commands whole: "%s"',
    (text) => {
      expect(condenseSentence(text)).toBe('')
    },
  )

  // Once its opener is gone, a pleasantry must not survive as a fragment that looks like news ("Thing, John.").
  it.each([
    'Sure thing, John!',
    'Thanks for the offer, Maria!',
    'Long time no see!',
    'Sorry to hear that!',
    'Have a great day, Sam!',
    'Later, take care!',
    'Doing OK, thanks.',
    'Bet it tastes great.',
  ])('drops a pleasantry addressed to someone: "%s"', (text) => {
    expect(condenseSentence(text)).toBe('')
  })

  it.each([
    ["I'm doing great at my new job in Boston.", 'Doing great at new job in Boston.'],
    [
      'I bet it tastes great with the chilli oil from Lisbon.',
      'Bet it tastes great with chilli oil from Lisbon.',
    ],
  ])('keeps a sentence that only opens like a pleasantry: "%s"', (text, expected) => {
    expect(condenseSentence(text)).toBe(expected)
  })

  it.each([
    ['We made pizza!', 'We made pizza!'],
    ['I got promoted!', 'Got promoted!'],
    ['My sister moved.', 'My sister moved.'],
  ])('keeps a two-word report of what happened: "%s"', (text, condensed) => {
    expect(condenseSentence(text)).toBe(condensed)
  })

  it.each(['We went there.', 'I loved it!', 'I tried that.'])(
    'drops a report that says nothing besides its verb: "%s"',
    (text) => {
      expect(condenseSentence(text)).toBe('')
    },
  )

  it('keeps what follows thanks when it says something', () => {
    expect(condenseSentence('Thanks for the tip, I booked the flat in Porto for March.')).toBe(
      'For tip, I booked flat in Porto for March.',
    )
  })

  it('strips openers, hedges and articles, keeping names, numbers and dates verbatim', () => {
    expect(condenseSentence('Wow, I really saw the Lisbon trip on 2026-12-04 costs 300 euros.')).toBe(
      'Saw the Lisbon trip on 2026-12-04 costs 300 euros.',
    )
    expect(condenseSentence("I'm taking the dog to the vet on Friday.")).toBe('Taking dog to vet on Friday.')
  })

  it.each([
    ['I met a few friends at the park.', 'Met a few friends at park.'],
    ['I grow a little basil now.', 'Grow a little basil now.'],
    ['I do three runs a week, and a long run on Sundays.', 'Do three runs a week, and long run on Sundays.'],
    ['We pay 90 euros a night for the room.', 'We pay 90 euros a night for room.'],
  ])('keeps the article that makes a quantity some, or a rate: "%s"', (text, expected) => {
    expect(condenseSentence(text)).toBe(expected)
  })

  // A hedge drops only where it hedges: "let you know" and "think about" are what the sentence says.
  it.each([
    ['I wanted to let you know I ran a charity event.', 'Wanted to let you know I ran charity event.'],
    ['Did you know the museum opens at 9?', 'Did you know museum opens at 9?'],
    ['I think about my grandmother every Sunday.', 'Think about grandmother every Sunday.'],
    ['I believe in second chances for everyone.', 'Believe in second chances for everyone.'],
    ['You know, I finally fixed the boat.', 'Finally fixed boat.'],
    ['I mean, the boat needs a new sail.', 'Boat needs new sail.'],
  ])('keeps a hedge word that is the sentence\'s own verb: "%s"', (text, expected) => {
    expect(condenseSentence(text)).toBe(expected)
  })

  it.each([
    ["I'll quit my job in spring.", "I'll quit job in spring."],
    ["We'll move to Porto.", "We'll move to Porto."],
    ["I'd sell the car for that.", "I'd sell car for that."],
    ["It's not just about the money.", "It's not just about money."],
  ])('keeps what says a thing is not done yet, or not the whole story: "%s"', (text, expected) => {
    expect(condenseSentence(text)).toBe(expected)
  })

  // Under the speaker's name, "Love hiking in the Alps" would say the speaker alone does it.
  it.each([
    ['We love hiking in the Alps.', 'We love hiking in the Alps.'],
    ["We've adopted a puppy from the shelter.", "We've adopted puppy from shelter."],
    ['Our kids love the beach at Nazaré.', 'Our kids love beach at Nazaré.'],
  ])('keeps who did it when that is more than the speaker: "%s"', (text, expected) => {
    expect(condenseSentence(text)).toBe(expected)
  })

  // A hedge that sets how sure the speaker is, or an intensifier under a negation, is the claim's strength.
  it.each([
    ['I kind of regret moving to Berlin.', 'Kind of regret moving to Berlin.'],
    ["I think I'll move to Berlin in spring.", "Think I'll move to Berlin in spring."],
    ["I guess I'll stay home on Friday.", "Guess I'll stay home on Friday."],
    ["I'm pretty much done with the thesis.", 'Pretty much done with thesis.'],
    ["I don't really like horror films.", "Don't really like horror films."],
    ["It's not very far from the station.", "It's not very far from station."],
  ])('keeps a hedge that is the strength of the claim: "%s"', (text, expected) => {
    expect(condenseSentence(text)).toBe(expected)
  })

  // A filler word spelled with a capital inside a sentence, or before another capitalised word, is part of a name.
  it.each([
    ["We watched Truly Madly Deeply at Tom's place.", "We watched Truly Madly Deeply at Tom's place."],
    [
      "I've been reading The Very Hungry Caterpillar all week.",
      'Been reading The Very Hungry Caterpillar all week.',
    ],
    ["Truly Madly Deeply was great at Tom's place.", "Truly Madly Deeply was great at Tom's place."],
  ])('keeps a name that starts with a filler word: "%s"', (text, expected) => {
    expect(condenseSentence(text)).toBe(expected)
  })

  // "Super" is how chat describes a thing ("super cozy", "super exciting"): the description's own word, and what a
  // later question quotes back.
  it('keeps "super" in a description', () => {
    expect(condenseSentence('The new beds are super cozy and comfy.')).toBe(
      'New beds are super cozy and comfy.',
    )
  })

  it('still drops an intensifier that only adds emphasis', () => {
    expect(condenseSentence('I really love the new studio in Porto.')).toBe('Love new studio in Porto.')
  })

  it('keeps the words when not terse', () => {
    expect(condenseSentence('I really love the new studio.', { isTerse: false })).toBe(
      'I really love the new studio.',
    )
  })
})

describe('withoutOpener', () => {
  it.each([
    ['Woah, that photo is from the 2019 final.', 'that photo is from the 2019 final.'],
    ['Yup, I finished the marathon.', 'I finished the marathon.'],
    ['Ah, the lake was frozen.', 'the lake was frozen.'],
    ['Yay! We adopted a puppy.', 'We adopted a puppy.'],
  ])('drops an interjection however it is spelled: "%s"', (text, expected) => {
    expect(withoutOpener(text)).toBe(expected)
  })

  it('drops opening words and the person addressed, not a sentence that starts with a name', () => {
    expect(withoutOpener('Hey Gina! We moved to Porto.')).toBe('We moved to Porto.')
    expect(withoutOpener('So Gina moved to Porto.')).toBe('Gina moved to Porto.')
  })
})
