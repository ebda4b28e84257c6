// Seeding in worker threads behaves as seeding on the main thread does: same notes, same errors, a free event loop.
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openMessagesDb } from '../../src/db/messages.js'
import { DreamlaneError } from '../../src/errors.js'
import { gatherPlanOf } from '../../src/notes/day-aggregator.js'
import { seedDailyNotes } from '../../src/notes/seed.js'
import type { SeedThreadMessage, SeedThreadOutcome } from '../../src/notes/seed-thread.js'
import { runThreadTask, threadModule } from '../../src/threads/thread-task.js'
import { dayWindow } from '../../src/time/local-day.js'
import { holdExclusiveLock } from '../helpers/faults.js'
import { makeMessagesDb, makeWorkspace, type MessageSpec } from '../helpers/workspace.js'

const NOW = new Date('2026-11-21T12:00:00Z')
const SEED_THREAD = threadModule(import.meta.url, '../../src/notes/seed-thread')

function chat(chatJid: string, startIso: string, count: number, stepMinutes = 7): MessageSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    chatJid,
    content: `note ${i} on the garden, the ferry and invoice ${i % 13}`,
    timestamp: new Date(Date.parse(startIso) + i * stepMinutes * 60_000).toISOString(),
    isBotMessage: i % 3 === 0,
  }))
}

function notesOf(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]))
}

describe('seeding in worker threads', () => {
  it('places a timestamp whose text is days from its instant exactly where the main thread does', async () => {
    const messages = [
      ...chat('a@g', '2026-11-10T00:00:00Z', 600, 30),
      ...chat('b@g', '2026-11-12T00:00:00Z', 300, 40),
      // Read by text on the 12th, but the instant is on the 8th: a split window has to fall back to one run.
      { chatJid: 'a@g', content: 'legacy clock', timestamp: '2026-11-12 10:00:00 +9900' },
    ]
    const seeded: Record<string, string>[] = []
    const counts: [string, number][][] = []
    for (const threads of [0, 1, 2, 3]) {
      const ws = makeWorkspace()
      const db = makeMessagesDb(ws.paths, messages)
      const window = dayWindow(NOW, 14, 'UTC')
      const input = { paths: ws.paths, config: ws.config, messages: db, window, threads }
      const result = await seedDailyNotes(input)
      counts.push(result.days.map((day) => [day.day, day.messages]))
      seeded.push(notesOf(ws.paths.daily))
    }
    expect(seeded[0]).toMatchObject({ '2026-11-08.md': expect.stringContaining('legacy clock') })
    expect(counts[0]).toContainEqual(['2026-11-08', 1])
    for (const k of [1, 2, 3]) {
      expect(counts[k]).toEqual(counts[0])
      expect(seeded[k]).toEqual(seeded[0])
    }
  })

  it('a thread whose split cannot place a message says so instead of dropping or double-counting it', async () => {
    const ws = makeWorkspace()
    const messages = [
      ...chat('a@g', '2026-11-08T00:00:00Z', 200, 90),
      // Read by text on the 17th, its instant is on the 13th: outside what the thread for the 13th reads.
      { chatJid: 'a@g', content: 'legacy clock', timestamp: '2026-11-17 10:00:00 +9900' },
    ]
    makeMessagesDb(ws.paths, messages).close()
    const window = dayWindow(NOW, 14, 'UTC')
    const plan = gatherPlanOf(window, new Map(), ws.config.seeding)
    const ranges = [
      { from: 0, to: 7 },
      { from: 7, to: 14 },
    ]
    const run = (index: number) =>
      runThreadTask<SeedThreadOutcome>(SEED_THREAD, { file: ws.paths.messagesDb, plan, ranges, index })
    expect(await run(0)).toEqual({ escaped: false })
    expect(await run(1)).toEqual({ escaped: true })
    const whole = await runThreadTask<SeedThreadOutcome>(SEED_THREAD, {
      file: ws.paths.messagesDb,
      plan,
      ranges: [{ from: 0, to: 14 }],
      index: 0,
    })
    expect(whole).toEqual({ escaped: false })
  })

  it('hands each day out as soon as no later row can fall on it, and says so when one still does', async () => {
    const ws = makeWorkspace()
    const messages = [
      ...chat('a@g', '2026-11-08T00:00:00Z', 200, 90),
      // Read by text on the 17th, its instant on the 13th: within the one range, but after the 13th was handed out.
      { chatJid: 'a@g', content: 'legacy clock', timestamp: '2026-11-17 10:00:00 +9900' },
    ]
    makeMessagesDb(ws.paths, messages).close()
    const window = dayWindow(NOW, 14, 'UTC')
    const plan = gatherPlanOf(window, new Map(), ws.config.seeding)
    const days: string[] = []
    const run = (isEarly: boolean) =>
      runThreadTask<SeedThreadOutcome>(
        SEED_THREAD,
        { file: ws.paths.messagesDb, plan, ranges: [{ from: 0, to: 14 }], index: 0, isEarly },
        { onMessage: (message) => days.push((message as SeedThreadMessage & { type: 'day' }).day.day) },
      )
    expect(await run(true)).toEqual({ escaped: true })
    // Posted before the thread met the row: each day that ends two days before the text read by then (the 16th).
    expect(days).toEqual(['2026-11-08', '2026-11-09', '2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13'])
    days.length = 0
    expect(await run(false)).toEqual({ escaped: false })
    expect(days).toContain('2026-11-13')
  })

  it('fails as the main thread would when the DB is gone by the time a thread opens it', async () => {
    const ws = makeWorkspace()
    const db = makeMessagesDb(ws.paths, chat('a@g', '2026-11-20T00:00:00Z', 10))
    rmSync(ws.paths.messagesDb)
    const window = dayWindow(NOW, 3, 'UTC')
    const error = await seedDailyNotes({
      paths: ws.paths,
      config: ws.config,
      messages: db,
      window,
      threads: 1,
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(DreamlaneError)
    expect(error).toMatchObject({ code: 'MESSAGES_DB_MISSING' })
    expect(
      readdirSync(ws.paths.workspace).includes('notes') ? readdirSync(join(ws.paths.workspace, 'notes')) : [],
    ).not.toContain('daily')
  })

  it('waits on a DB another process holds, says so, then fails MESSAGES_DB_BUSY (exit code 4)', async () => {
    const ws = makeWorkspace()
    makeMessagesDb(ws.paths, chat('a@g', '2026-11-20T00:00:00Z', 10)).close()
    // A host's DELETE-journal DB: there an exclusive lock keeps readers out too (WAL would let them read).
    const host = new Database(ws.paths.messagesDb)
    host.pragma('journal_mode = delete')
    host.close()
    const messages = openMessagesDb(ws.paths.messagesDb, { readonly: true })
    const holder = await holdExclusiveLock(ws.paths.messagesDb, 'delete')
    const waits: number[] = []
    const dbWait = { waitMs: 1500, onWait: ({ waitedMs }: { waitedMs: number }) => waits.push(waitedMs) }
    const window = dayWindow(NOW, 3, 'UTC')
    const input = { paths: ws.paths, config: ws.config, messages, window, threads: 1, dbWait }
    const error = await seedDailyNotes(input).catch((caught: unknown) => caught)
    messages.close()
    expect(error).toMatchObject({
      code: 'MESSAGES_DB_BUSY',
      message: expect.stringContaining(`pid ${holder.pid}`),
    })
    expect(waits.length).toBeGreaterThan(0)
  })

  it('leaves the event loop free while threads read the window', async () => {
    const ws = makeWorkspace()
    const messages = ['a', 'b', 'c', 'd'].flatMap((c) => chat(`${c}@g`, '2026-10-01T00:00:00Z', 3000, 17))
    const db = makeMessagesDb(ws.paths, messages)
    let ticks = 0
    let gatheredAt = -1
    const timer = setInterval(() => ticks++, 1)
    try {
      const window = dayWindow(NOW, 60, 'UTC')
      const onProgress = () => {
        if (gatheredAt < 0) gatheredAt = ticks
      }
      const input = { paths: ws.paths, config: ws.config, messages: db, window, threads: 2, onProgress }
      const result = await seedDailyNotes(input)
      expect(result.days.reduce((sum, day) => sum + day.messages, 0)).toBe(messages.length)
    } finally {
      clearInterval(timer)
    }
    // Timers ran while the threads started and read (before the first note was written).
    expect(gatheredAt).toBeGreaterThan(5)
  })
})
