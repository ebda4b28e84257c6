import { readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseDailyNote } from '../../src/notes/daily-note.js'
import type { GatheredDay } from '../../src/notes/day-aggregator.js'
import { DirSyncs } from '../../src/notes/dir-syncs.js'
import { dailyNotePath } from '../../src/notes/paths.js'
import { SeedWriter, type Existing } from '../../src/notes/seed-writer.js'
import { makeWorkspace } from '../helpers/workspace.js'

const DAY = '2026-11-20'

/** A gathered day of `total` messages, as a thread hands it out. */
function gathered(total: number, day = DAY): GatheredDay {
  const first = `${day}T08:00:00.000Z`
  return {
    day,
    counts: { total, user: total, assistant: 0, bytes: 0, first, last: first, trees: 1, chats: 1 },
    slice: { total, first },
    cues: `slice: ${first} .. ${first}\nmessages: ${total}`,
    watermarkMs: null,
  }
}

describe('writing seeded notes as days are gathered', () => {
  it('judges a day gathered twice against the note seeding started from, and writes the last gathering', async () => {
    const ws = makeWorkspace()
    const path = dailyNotePath(ws.paths, DAY)
    // No note at first: written from a first gathering, then from a corrected one: still "created".
    const fresh = new SeedWriter(ws.paths, 'UTC', new Map([[DAY, null]]))
    fresh.write(gathered(3))
    const [created] = await fresh.finish([gathered(4)])
    expect(created?.day).toMatchObject({ outcome: 'created', messages: 4 })
    expect(created?.isChanged).toBe(true)
    const text = readFileSync(path, 'utf8')
    expect(text).toContain('messages_total: 4')
    // A note already as the corrected gathering makes it: the first write is undone, and the day is "unchanged".
    const existing = new Map<string, Existing>([[DAY, { text, note: parseDailyNote(text, path) }]])
    const again = new SeedWriter(ws.paths, 'UTC', existing)
    again.write(gathered(5))
    const [unchanged] = await again.finish([gathered(4)])
    expect(unchanged?.day.outcome).toBe('unchanged')
    expect(readFileSync(path, 'utf8')).toBe(text)
  })

  it('leaves a note someone saved after its first write, and says so', async () => {
    const ws = makeWorkspace()
    const path = dailyNotePath(ws.paths, DAY)
    const writer = new SeedWriter(ws.paths, 'UTC', new Map([[DAY, null]]))
    const first = gathered(3)
    writer.write(first)
    await writer.settle()
    writeFileSync(path, readFileSync(path, 'utf8').replace('<!-- NEEDS_SUMMARY -->', 'Typed by hand.'))
    const [skipped] = await writer.finish([gathered(4)])
    expect(skipped?.day.outcome).toBe('skipped')
    expect(skipped?.problem?.reason).toMatch(/changed while seeding/)
    expect(readFileSync(path, 'utf8')).toContain('Typed by hand.')
  })

  it('syncs the notes folder once for all the days it wrote, before finish returns', async () => {
    const ws = makeWorkspace()
    const days = ['2026-11-18', '2026-11-19', '2026-11-20']
    const synced: string[] = []
    const writer = new SeedWriter(
      ws.paths,
      'UTC',
      new Map(days.map((day) => [day, null])),
      new DirSyncs(async (dir) => void synced.push(dir)),
    )
    for (const day of days) writer.write(gathered(2, day))
    await Promise.resolve()
    expect(synced).toEqual([])
    const seeded = await writer.finish(days.map((day) => gathered(2, day)))
    expect(seeded.map((note) => note.day.outcome)).toEqual(['created', 'created', 'created'])
    expect(synced).toEqual([dirname(dailyNotePath(ws.paths, DAY))])
    for (const day of days)
      expect(readFileSync(dailyNotePath(ws.paths, day), 'utf8')).toContain('messages_total: 2')
  })
})
