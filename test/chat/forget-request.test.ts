import { describe, expect, it } from 'vitest'
import { recogniseForgetRequest } from '../../src/chat/forget-request/configuration.js'

describe('recogniseForgetRequest', () => {
  it.each([
    ['please forget my dentist', 'en', 'my dentist'],
    ['Forget about Dr Sousa.', 'en', 'Dr Sousa'],
    ['can you forget my address please', 'en', 'my address'],
    ["don't remember my ex", 'en', 'my ex'],
    ['delete what you know about my ex from memory', 'en', 'my ex'],
    ['esquece o meu dentista', 'pt', 'o meu dentista'],
    ['por favor, esqueça a Rita', 'pt', 'a Rita'],
    ['olvida a mi dentista', 'es', 'mi dentista'],
    ['vergiss meinen Zahnarzt', 'de', 'meinen Zahnarzt'],
    ['oublie mon dentiste', 'fr', 'mon dentiste'],
  ])('%s → %s "%s"', (text, locale, what) => {
    expect(recogniseForgetRequest(text)).toEqual({ kind: 'what', what, locale })
  })

  it.each([
    "don't remember that",
    'don’t remember any of that',
    'forget this',
    'Forget what I just said.',
    'please forget that, ok?',
    'forget my last message',
    'não te lembres disso',
    'esquece o que acabei de dizer',
    'olvida lo que acabo de decir',
    'merk dir das nicht',
    'vergiss, was ich gerade gesagt habe',
    'oublie ça',
    'oublie ce que je viens de dire',
    'oublie ce que j’ai dit',
  ])('%s points back at an earlier message', (text) =>
    expect(recogniseForgetRequest(text)?.kind).toBe('pointer'),
  )

  it.each([
    'I forgot my keys',
    "don't forget to buy milk",
    'forget it',
    'What did I forget?',
    'can you remember my dentist?',
    `please forget ${'x '.repeat(150)}`,
  ])('%s is no request', (text) => expect(recogniseForgetRequest(text)).toBeNull())
})
