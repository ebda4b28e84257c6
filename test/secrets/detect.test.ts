import { describe, expect, it } from 'vitest'
import { detectSecrets } from '../../src/secrets/detect.js'
import { withholdSecrets } from '../../src/secrets/withhold.js'
import { LOOK_ALIKES, SECRET_CASES } from './corpus.js'

describe('detectSecrets', () => {
  it.each(SECRET_CASES.map((c) => [c.lang, c.kind, c.text, c] as const))(
    '%s %s: %j',
    (_lang, kind, _text, c) => {
      const spans = detectSecrets(c.text)
      const covering = spans.find(
        (span) =>
          span.start <= c.text.indexOf(c.value) && span.end >= c.text.indexOf(c.value) + c.value.length,
      )
      expect(covering?.kind).toBe(kind)
      expect(withholdSecrets(c.text).text).not.toContain(c.value)
    },
  )

  it.each(LOOK_ALIKES.map((l) => [l.text, l] as const))('keeps %j', (_text, lookAlike) => {
    expect(detectSecrets(lookAlike.text)).toEqual([])
    expect(withholdSecrets(lookAlike.text).text).toContain(lookAlike.keep)
  })

  it('keeps a kind the user keeps on purpose, and only that kind', () => {
    const text = 'The wifi password is Tr0ub4dor&3 and my PIN is 4821'
    const kinds = detectSecrets(text, { keepKinds: ['wifi-password'] }).map((span) => span.kind)
    expect(kinds).toEqual(['pin'])
  })

  it('changes nothing when a withheld text is scanned again', () => {
    const once = withholdSecrets(
      'mi contraseña es Gato#2024 y el PIN 6604',
      {},
      {
        chat: 'Casa',
        day: '2026-12-04',
        messageId: 'm17',
      },
    ).text
    expect(once).toBe(
      'mi contraseña es (withheld password: said in chat Casa on 2026-12-04, message m17) y el PIN (withheld pin: said in chat Casa on 2026-12-04, message m17)',
    )
    expect(withholdSecrets(once).text).toBe(once)
  })
})
