import { describe, expect, it } from 'vitest'
import { asTyped } from '../../../src/model/offline/texting.js'

describe('asTyped: texting style read as the rules expect it', () => {
  it.each([
    ['im a nurse', "i'm a nurse"],
    ['Ive been vegan since jan', "I've been vegan since jan"],
    ['tbh i dont really like sushi', "tbh i don't really like sushi"],
    ['u know my bf dan right', 'you know my bf Dan right'],
    ['my sister jess is visiting sat', 'my sister Jess is visiting sat'],
    ['i live in manchester now', 'i live in Manchester now'],
  ])('%s → %s', (typed, read) => {
    expect(asTyped(typed)).toBe(read)
  })

  it.each([
    // Words, not contractions: an ID, being ill, a verb.
    'my id is on the desk',
    'i feel ill',
    // Modals are no names, nor is an abbreviation alone.
    'my friend will help me move',
    'my sister may come over later',
    'im a teacher at st marys primary'.replace('im', "i'm"),
    // A sentence with capitals keeps them as typed: the writer chose them.
    'My friend jess is here',
  ])('leaves %s as typed', (typed) => {
    expect(asTyped(typed)).toBe(typed)
  })
})
