// A quiet day's summary: a few messages keep all their news, not just the line that weighs the most.
import { describe, expect, it } from 'vitest'
import { buildDaySummary } from '../../../src/model/offline/daily-summary.js'
import type { WindowMessage } from '../../../src/model/offline/types.js'
import { windowMessage } from './facts.js'

const said = (id: string, role: 'user' | 'assistant', content: string, minute: number): WindowMessage =>
  windowMessage({
    ...{ id, role, content, sender: role === 'user' ? 'Priya' : 'Assistant' },
    ts: new Date(Date.UTC(2026, 10, 24, 9, minute)).toISOString(),
  })

describe('a day of a few messages', () => {
  it('keeps each piece of the user’s news beside the assistant’s replies', async () => {
    const summary = await buildDaySummary({
      timeZone: 'UTC',
      messages: [
        said('m1', 'user', 'I have a dentist appointment at 2pm today.', 0),
        said('m2', 'assistant', 'Noted: the dentist at 2pm today. Good luck!', 1),
        said('m3', 'user', 'My sister Anika is visiting next weekend, she is vegan.', 2),
        said('m4', 'assistant', 'Kopps in Mitte is fully vegan, and Lucky Leek does a tasting menu.', 3),
        said('m5', 'user', 'Our cat Mochi is sick, the vet says it is nothing serious.', 4),
        said('m6', 'assistant', 'Offer her small amounts of food she likes.', 5),
      ],
    })
    for (const news of [
      'Dentist appointment at 2pm',
      'sister Anika is visiting',
      'cat Mochi is sick',
      'Kopps',
    ])
      expect(summary).toContain(news)
  })
})
