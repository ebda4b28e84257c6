// Nightly dreams, each over its last two days: MEMORY.md ends as one dream over all of them leaves it, with no
// pointer per daily note, so the index a user lives with stays the size of one dream's however many nights pass.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { selectProvider } from '../../src/model/select.js'
import { parseDayPointers } from '../../src/model/offline/memory-index.js'
import { makeDreamWorld, type DreamWorld } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'

const NIGHTS = 12
const TOPICS = ['ferry', 'concert', 'passport', 'recipe', 'marathon', 'invoice', 'garden', 'violin']

/** Two days apart, from 2026-10-01: a user's news and the assistant's reply, each day about its own topic. */
const DAYS = Array.from({ length: NIGHTS }, (_, night) => `2026-10-${String(1 + 2 * night).padStart(2, '0')}`)

const HISTORY: MessageSpec[] = DAYS.flatMap((day, night) => {
  const topic = TOPICS[night % TOPICS.length]
  return [
    {
      chatJid: 'web:main',
      content: `Sorted out the ${topic} today with Rui in Braga, ${night + 2} things left.`,
      timestamp: `${day}T09:00:00.000Z`,
    },
    {
      chatJid: 'web:main',
      content: `Noted the ${topic} with Rui.`,
      timestamp: `${day}T09:00:05.000Z`,
      isBotMessage: true,
    },
  ]
})

const nextMorning = (day: string): string =>
  new Date(Date.parse(`${day}T03:30:00Z`) + 86_400_000).toISOString()

const readIndex = (world: DreamWorld): string => readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8')

async function dreamEach(world: DreamWorld, days: readonly string[], windowDays: number): Promise<number[]> {
  const dreamlane = world.open({ provider: selectProvider(world.config, {}).provider })
  const sizes: number[] = []
  try {
    for (const day of days) {
      world.clock.set(nextMorning(day))
      const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: windowDays })
      expect(run.status, day).toBe('succeeded')
      sizes.push(Buffer.byteLength(readIndex(world)))
    }
  } finally {
    await dreamlane.shutdown()
  }
  return sizes
}

const readRecent = (world: DreamWorld): string =>
  readFileSync(join(world.paths.memory, 'recent-context.md'), 'utf8')

describe('MEMORY.md over nightly dreams', () => {
  it('ends as one dream over the same days leaves it, and stops growing', async () => {
    const nightly = await makeDreamWorld(HISTORY)
    const sizes = await dreamEach(nightly, DAYS, 2)
    const once = await makeDreamWorld(HISTORY)
    await dreamEach(once, [DAYS.at(-1)!], 2 * NIGHTS + 1)

    for (const world of [nightly, once]) {
      expect(parseDayPointers(readIndex(world))).toEqual([])
      // The latest day is found where the index says: recent-context.md.
      expect(readIndex(world)).toContain('[recent-context.md](recent-context.md)')
      expect(readRecent(world)).toContain(`[[${DAYS.at(-1)}]]`)
    }
    // A night changes a count or two in the file pointers, never adds a line.
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(40)
  }, 60_000)
})
