import { describe, expect, it } from 'vitest'
import { compileForgetMatcher } from '../../src/privacy/forget-match.js'
import { phrasesOf, phrasesOfMessage } from '../../src/privacy/forget-phrases.js'
import { redactPieces } from '../../src/privacy/redact.js'
import { compilePrivacy } from '../../src/privacy/rules.js'

describe('compileForgetMatcher', () => {
  const matcher = compileForgetMatcher(['Dr Sousa', 'dentist'])
  it.each([
    ['My dentist is Dr Sousa.', true],
    ['DR. SOUSA called', true],
    ['the dentists were closed', true],
    ["Sousa's office", false],
    ["Dr Sousa's office", true],
    ['dentistry is hard', false],
    ['Dr Sousão', false],
    ['dr sousa', true],
    ['Dr Sóusa', true],
    ['nothing here', false],
  ])('%s → %s', (text, expected) => expect(matcher.matches(text)).toBe(expected))

  it('names the phrases a text mentions; no phrase matches nothing', () => {
    expect(matcher.matching('dentist Dr Sousa')).toEqual(['dr sousa', 'dentist'])
    expect(compileForgetMatcher([]).matches('anything')).toBe(false)
  })
})

describe('phrasesOf', () => {
  it.each([
    ['my dentist', ['dentist']],
    ['Dr Sousa', ['Dr Sousa']],
    ['the gym and my ex', ['gym', 'ex']],
    ['o meu dentista', ['dentista']],
    ['meinen Zahnarzt', ['Zahnarzt']],
    ['"Dr Sousa"', ['Dr Sousa']],
    ['my', []],
    ['a', []],
    ['  ', []],
  ])('%s → %j', (what, expected) => expect(phrasesOf(what)).toEqual(expected))
})

describe('phrasesOfMessage', () => {
  it.each([
    [
      'My dentist is Dr Sousa, on Rua Formosa.',
      ['Dr Sousa', 'Sousa', 'Rua Formosa', 'Formosa', 'dentist is Dr Sousa'],
    ],
    ['Dr. Sousa said the X-ray looks fine', ['Dr Sousa', 'Sousa', 'Dr Sousa said the X-ray looks fine']],
    // A lone capitalised word names nothing for sure (a weekday, any German noun); a short clause matches too much.
    ['I moved to Porto last month and I love it.', ['I moved to Porto last month']],
    ['Ich habe morgen einen Termin beim Zahnarzt.', ['Ich habe morgen einen Termin beim Zahnarzt']],
    ['ok', []],
    ['Saw her today. Fun!', []],
  ])('%s → %j', (text, expected) => expect(phrasesOfMessage(text)).toEqual(expected))

  it('gives phrases a request reads back as they are', () => {
    const phrases = phrasesOfMessage('My sister Rita Lopes visits on Saturday; she loves hiking in Gerês.')
    expect(phrasesOf(phrases.join(', '))).toEqual(phrases)
  })
})

describe('redactPieces', () => {
  const matcher = compileForgetMatcher(['Dr Sousa'])
  it('cuts matching sentences and keeps the rest exactly', () => {
    expect(redactPieces('- Alex: Saw Dr Sousa. Alex: Moved to Porto! Ok?', matcher, 'sentence')).toEqual({
      text: '- Alex: Moved to Porto! Ok?',
      removed: ['Alex: Saw Dr Sousa.'],
    })
  })
  it('cuts matching list items and a separator left dangling', () => {
    expect(redactPieces('Fri: Porto, flat, Dr Sousa', matcher, 'item').text).toBe('Fri: Porto, flat')
    expect(redactPieces('Dr Sousa only.', matcher, 'sentence').text).toBeNull()
  })
})

describe('compilePrivacy', () => {
  const filter = compilePrivacy({
    excludeChats: ['secret:*', '1203?@g.us'],
    privateSpans: [{ chatJid: 'web:main', from: '2026-11-21T10:00:00Z', until: '2026-11-21T11:00:00Z' }],
    forgotten: ['Dr Sousa'],
  })
  const at = (chatJid: string, timestamp: string, content = 'hello', rootJid?: string) =>
    filter.apply({ chatJid, timestamp, content, ...(rootJid ? { rootJid } : {}) })
  it('keeps out excluded chats (and their branches), private stretches, and forgotten sentences', () => {
    expect(at('secret:lawyer', '2026-11-21T09:00:00Z')).toBeNull()
    expect(at('branch:1', '2026-11-21T09:00:00Z', 'hi', 'secret:lawyer')).toBeNull()
    expect(at('12034@g.us', '2026-11-21T09:00:00Z')).toBeNull()
    expect(at('120345@g.us', '2026-11-21T09:00:00Z')).not.toBeNull()
    expect(at('web:main', '2026-11-21T10:30:00Z')).toBeNull()
    expect(at('web:main', '2026-11-21T11:00:00Z')).not.toBeNull()
    expect(at('web:main', '2026-11-21T12:00:00Z', 'Saw Dr Sousa. Then lunch.')?.content).toBe('Then lunch.')
    expect(at('web:main', '2026-11-21T12:00:00Z', 'Saw Dr Sousa.')).toBeNull()
  })
  it('with no rules, every message passes as it is', () => {
    const message = { chatJid: 'a', timestamp: '2026-11-21T12:00:00Z', content: 'x' }
    expect(compilePrivacy().apply(message)).toBe(message)
  })
})
