// Seeded notes are byte-identical to those the seeding code wrote before it moved off the main thread: the
// expectations in test/fixtures/seed-golden/ were recorded from that code, and every seeding path must match them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seedDailyNotes } from '../../src/notes/seed.js'
import { edgeWorld, volumeWorld, type GoldenOutcome, type Seed } from './seed-golden-world.js'

const GOLDEN = join(import.meta.dirname, '../fixtures/seed-golden')

function expectGolden(name: string, outcome: GoldenOutcome): void {
  const file = join(GOLDEN, `${name}.json`)
  // Recording is deliberate and rare: only with DREAMLANE_RECORD_SEED_GOLDEN=1, never in CI.
  if (process.env.DREAMLANE_RECORD_SEED_GOLDEN === '1' && !process.env.CI) {
    mkdirSync(GOLDEN, { recursive: true })
    writeFileSync(file, `${JSON.stringify(outcome, null, 2)}\n`)
  }
  const expected = JSON.parse(readFileSync(file, 'utf8')) as GoldenOutcome
  expect(outcome.results).toEqual(expected.results)
  expect(Object.keys(outcome.notes)).toEqual(Object.keys(expected.notes))
  for (const [name, text] of Object.entries(expected.notes)) expect(outcome.notes[name], name).toBe(text)
}

const paths: [string, Seed][] = [
  ['on the calling thread', (input) => seedDailyNotes({ ...input, threads: 0 })],
  ['as chosen by window size', seedDailyNotes],
  ['in one worker thread', (input) => seedDailyNotes({ ...input, threads: 1 })],
  ['split across two worker threads', (input) => seedDailyNotes({ ...input, threads: 2 })],
  ['split across three worker threads', (input) => seedDailyNotes({ ...input, threads: 3 })],
]

describe.each(paths)('seeded notes stay byte-identical (%s)', (_name, seed) => {
  it('edge cases on a host DB over the end of DST, seeded, summarised, broken and seeded again', async () => {
    expectGolden('edge', (await edgeWorld(seed)).outcome)
  })

  it('a bench-like volume: 40 days of 12,000 messages in 12 chats with branches', async () => {
    expectGolden('volume', (await volumeWorld(seed)).outcome)
  })
})
