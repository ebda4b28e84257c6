import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { seedNotes } from '../../src/app/seed.js'
import { PrivacyStore } from '../../src/db/privacy-store.js'
import { openStateDb } from '../../src/db/state.js'
import { LockHeldError } from '../../src/errors.js'
import { acquireLock } from '../../src/notes/lock.js'
import { dailyNotePath } from '../../src/notes/paths.js'
import { dayWindow } from '../../src/time/local-day.js'
import { fixedClock } from '../helpers/clock.js'
import { makeMessagesDb, makeWorkspace } from '../helpers/workspace.js'

describe('seedNotes', () => {
  it('is refused while a dream holds the lock, writing nothing; seeds and marks the notes dirty after', async () => {
    const ws = makeWorkspace()
    const clock = fixedClock('2026-11-21T12:00:00Z')
    const messages = makeMessagesDb(ws.paths, [
      { chatJid: 'web:main', content: 'Atlas ships on Friday.', timestamp: '2026-11-21T09:00:00.000Z' },
    ])
    const state = openStateDb(ws.paths.stateDb)
    onTestFinished(() => {
      messages.close()
      state.close()
    })
    const input = { paths: ws.paths, config: ws.config, messages, window: dayWindow(clock.now(), 1, 'UTC') }
    const note = dailyNotePath(ws.paths, '2026-11-21')

    const dream = await acquireLock({
      file: ws.paths.lockFile,
      runId: 'run-dream',
      clock,
      staleAfterMs: 60_000,
    })
    await expect(seedNotes(input, { clock, state })).rejects.toBeInstanceOf(LockHeldError)
    expect(existsSync(note)).toBe(false)
    await dream.release()

    const result = await seedNotes(input, { clock, state })
    expect(result.changed).toEqual([note])
    const dirty = state.prepare('SELECT path FROM fts_dirty').all() as { path: string }[]
    expect(dirty.map((row) => row.path)).toEqual(['notes/daily/2026-11-21.md'])
    expect(existsSync(ws.paths.lockFile)).toBe(false)
  })

  it('seeds through the privacy rules: no cue of an excluded chat, a private stretch or a tombstone', async () => {
    const ws = makeWorkspace({}, { memory: { excludeChats: ['secret:*'] } })
    const clock = fixedClock('2026-11-21T12:00:00Z')
    const messages = makeMessagesDb(ws.paths, [
      { chatJid: 'web:main', content: 'Atlas ships on Friday.', timestamp: '2026-11-21T08:00:00.000Z' },
      { chatJid: 'web:main', content: 'My therapist says rest.', timestamp: '2026-11-21T09:30:00.000Z' },
      {
        chatJid: 'web:main',
        content: 'Dr Sousa moved my cleaning. Lunch was good.',
        timestamp: '2026-11-21T10:30:00.000Z',
      },
      {
        chatJid: 'secret:lawyer',
        content: 'Ms Varela calls on Friday.',
        timestamp: '2026-11-21T11:00:00.000Z',
      },
    ])
    const state = openStateDb(ws.paths.stateDb)
    onTestFinished(() => {
      messages.close()
      state.close()
    })
    const privacy = new PrivacyStore(state)
    privacy.startPrivate('web:main', new Date('2026-11-21T09:00:00Z'))
    privacy.endPrivate('web:main', new Date('2026-11-21T10:00:00Z'))
    privacy.addTombstone({
      ...{ id: 'forget-1', what: 'Dr Sousa', phrases: ['dr sousa'], chatJid: 'cli' },
      ...{ createdAt: '2026-11-21T11:30:00Z', backupId: null, changedFiles: [], backupsPurged: false },
    })
    await seedNotes(
      { paths: ws.paths, config: ws.config, messages, window: dayWindow(clock.now(), 1, 'UTC') },
      { clock, state },
    )
    const note = readFileSync(dailyNotePath(ws.paths, '2026-11-21'), 'utf8')
    expect(note).toContain('Atlas ships on Friday.')
    expect(note).toContain('Lunch was good.')
    expect(note).toContain('messages_total: 2')
    expect(note).not.toMatch(/therapist|Sousa|Varela|secret:lawyer/)
  })
})
