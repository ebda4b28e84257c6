// The offline engine weighs a short window's words against the counts the lifecycle gives it of the messages before.
import { describe, expect, it } from 'vitest'
import { termsOf, WordWeights } from '../../../src/model/offline/word-weights.js'
import { makeDreamWorld } from './world.js'

const NIGHT = [
  'Finished the quarterly numbers at last, what a slog.',
  'The quarterly review is with Dana after lunch.',
  'Also my passport expires in March, the renewal form is a maze.',
  'Booked a passport photo for the renewal on Friday.',
  'The dentist moved my cleaning to Tuesday, bicycle ride there.',
  'Fixed the bicycle chain before the dentist visit.',
].map((content, index) => ({
  chatJid: 'web:main',
  content,
  timestamp: `2026-11-23T${String(index + 5).padStart(2, '0')}:00:00.000Z`,
}))

/** Counts as if every one of `documents` earlier messages spoke of the quarter. */
function historyOfQuarters(documents: number) {
  const weights = new WordWeights()
  for (let index = 0; index < documents; index++)
    weights.add(termsOf(`quarterly numbers again, take ${index}`))
  return weights.counts()
}

/** The night's line in recent-context.md: its topics. */
const pointerOf = (recentContext: string): string =>
  recentContext.split('\n').find((line) => line.startsWith('- [[2026-11-23]]')) ?? ''

describe('a night dreamed with the word history', () => {
  it('names the night by what is new in it, not by what the user talks about every day', async () => {
    const alone = await makeDreamWorld({ days: 1, messages: NIGHT })
    await alone.dream()
    expect(pointerOf(alone.read('notes/memory/recent-context.md'))).toContain('quarterly')

    const withHistory = await makeDreamWorld({ days: 1, messages: NIGHT })
    await withHistory.dream({ wordHistory: historyOfQuarters(500) })
    const pointer = pointerOf(withHistory.read('notes/memory/recent-context.md'))
    expect(pointer).toContain('passport')
    expect(pointer).not.toContain('quarterly')
  })
})
