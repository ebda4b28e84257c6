// Text in scripts without spaces and in languages other than English: the engine keeps it, and its English note
// style leaves it alone.
import { describe, expect, it } from 'vitest'
import { condenseSentence } from '../../../src/model/offline/condense.js'
import { buildDaySummary } from '../../../src/model/offline/daily-summary.js'
import {
  contentWordCount,
  readsAsOtherLanguage,
  spacelessBigrams,
} from '../../../src/model/offline/script.js'
import { splitSentences } from '../../../src/model/offline/text.js'
import type { WindowMessage } from '../../../src/model/offline/types.js'
import { windowMessage } from './facts.js'
import { termsOf } from '../../../src/model/offline/word-weights.js'

describe('spaceless scripts', () => {
  it('counts a Chinese sentence by its characters, not as one word', () => {
    expect(contentWordCount('我明天要去北京出差')).toBe(5)
    expect(contentWordCount('Porto, 3 nights')).toBe(2)
  })

  it('weighs and matches Chinese and Japanese by character pairs, Latin words beside them as words', () => {
    expect(spacelessBigrams('去北京')).toEqual(['去北', '北京'])
    expect([...termsOf('iPhone用の北京map')]).toEqual(['用の', 'の北', '北京', 'iphon', 'map'])
  })

  it('ends sentences at full-width stops, which no space follows, but not inside a closed quote', () => {
    expect(splitSentences('我明天要去北京出差，大概三天。不用了！你好吗？')).toEqual([
      '我明天要去北京出差，大概三天。',
      '不用了！',
      '你好吗？',
    ])
    expect(splitSentences('彼は「行く。」と言った。次の文。')).toEqual([
      '彼は「行く。」と言った。',
      '次の文。',
    ])
  })
})

describe('languages other than English', () => {
  it.each([
    ['mañana tengo una reunión con Carlos a las 10', true],
    ['voy a la playa con mi hermana', true],
    ['Il a un chien et une maison', true],
    ['Ich habe an der Wand ein Bild', true],
    ['We went to Las Vegas for a week', false],
    ['I could die laughing at that show', false],
    ['Moved to a new flat', false],
  ])('%s → other language: %s', (text, other) => {
    expect(readsAsOtherLanguage(text)).toBe(other)
  })

  it('keeps the words English note style would drop: a Spanish "a" is "at", not an article', () => {
    expect(condenseSentence('mañana tengo una reunión con Carlos a las 10')).toBe(
      'Mañana tengo una reunión con Carlos a las 10',
    )
    expect(condenseSentence('I met a friend at the park')).toBe('Met friend at park')
  })
})

describe('a day summary in Chinese', () => {
  const message = (id: string, content: string, ts: string, role: 'user' | 'assistant'): WindowMessage =>
    windowMessage({ id, content, ts, role })

  it('keeps what the user said, each sentence closed by its own full stop', async () => {
    const summary = await buildDaySummary({
      timeZone: 'UTC',
      messages: [
        message('m1', '我明天要去北京出差，大概三天。', '2026-11-23T08:10:00Z', 'user'),
        message('m2', '好的，祝你出差顺利！', '2026-11-23T08:10:30Z', 'assistant'),
        message('m3', '不用了。我妹妹小美下周六结婚，我得准备礼物。', '2026-11-23T08:12:00Z', 'user'),
      ],
    })
    expect(summary).toContain('我明天要去北京出差，大概三天。')
    expect(summary).toContain('我妹妹小美下周六结婚，我得准备礼物。')
    expect(summary).not.toContain('。.')
  })
})
