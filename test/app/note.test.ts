import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { appendNote, type NoteDeps } from '../../src/app/note.js'
import { seedNotes } from '../../src/app/seed.js'
import { openStateDb } from '../../src/db/state.js'
import { parseDailyNote } from '../../src/notes/daily-note.js'
import { dailyNotePath } from '../../src/notes/paths.js'
import { dayWindow } from '../../src/time/local-day.js'
import { fixedClock } from '../helpers/clock.js'
import { writeForeignLock } from '../helpers/dream-world.js'
import { makeMessagesDb, makeWorkspace } from '../helpers/workspace.js'

function noteWorld() {
  const ws = makeWorkspace()
  const clock = fixedClock('2026-11-21T12:34:00Z')
  const messages = makeMessagesDb(ws.paths, [
    { chatJid: 'web:main', content: 'Atlas ships on Friday.', timestamp: '2026-11-21T09:00:00.000Z' },
  ])
  const state = openStateDb(ws.paths.stateDb)
  onTestFinished(() => {
    state.close()
  })
  const deps: NoteDeps = { paths: ws.paths, config: ws.config, clock, state }
  const file = dailyNotePath(ws.paths, '2026-11-21')
  const seed = () => seedNotes({ ...deps, messages, window: dayWindow(clock.now(), 1, 'UTC') }, deps)
  return { ws, deps, file, seed }
}

describe('appendNote', () => {
  it("creates today's note with a Noted section that seeding keeps, and appends below earlier entries", async () => {
    const { deps, file, seed } = noteWorld()
    expect(await appendNote(deps, 'Prefers aisle seats')).toEqual({
      path: 'notes/daily/2026-11-21.md',
      day: '2026-11-21',
      entry: '- 12:34 Prefers aisle seats',
      created: true,
    })
    await seed()
    const seeded = parseDailyNote(readFileSync(file, 'utf8'), 'note')
    expect(seeded.frontMatter.messages_total).toBe(1)
    expect(seeded.preface).toBe('## Noted\n\n- 12:34 Prefers aisle seats')
    expect(seeded.cues).toContain('Atlas ships on Friday.')

    await appendNote(deps, 'Sister is called Ana\nshe lives in Braga')
    const after = parseDailyNote(readFileSync(file, 'utf8'), 'note')
    expect(after.preface).toBe(
      '## Noted\n\n- 12:34 Prefers aisle seats\n- 12:34 Sister is called Ana\n  she lives in Braga',
    )
    expect(after.cues).toBe(seeded.cues)
    expect(after.sections).toEqual(seeded.sections)
    const dirty = deps.state.prepare('SELECT path FROM fts_dirty').all() as { path: string }[]
    expect(dirty.map((row) => row.path)).toContain('notes/daily/2026-11-21.md')
  })

  it.each([
    ['an empty note', '', 'empty'],
    ['a note over 8 KiB', 'x'.repeat(8 * 1024 + 1), 'at most 8192'],
    ['a NUL byte', 'a\0b', 'NUL'],
    ['an HTML comment', '<!-- DREAM_CUES', 'HTML comment'],
  ])('refuses %s and writes nothing', async (_label, text, why) => {
    const { deps, file } = noteWorld()
    await expect(appendNote(deps, text)).rejects.toMatchObject({ code: 'TOOL_INPUT_INVALID' })
    await expect(appendNote(deps, text)).rejects.toThrow(why)
    expect(existsSync(file)).toBe(false)
  })

  it('is refused at once while a dream holds the lock, and waits for another append', async () => {
    const { deps, file } = noteWorld()
    writeForeignLock(deps.paths.lockFile, process.pid, '2026-11-21T12:30:00.000Z', 'run-dream')
    await expect(appendNote(deps, 'while dreaming')).rejects.toMatchObject({ code: 'LOCK_HELD' })
    expect(existsSync(file)).toBe(false)

    writeForeignLock(deps.paths.lockFile, process.pid, '2026-11-21T12:30:00.000Z', 'note-other')
    const appended = appendNote(deps, 'after the other append')
    // The append retries for up to 10 s; the other one finishes well within that.
    setTimeout(() => rmSync(deps.paths.lockFile), 200)
    expect((await appended).entry).toBe('- 12:34 after the other append')
  })

  it('leaves a malformed daily note alone', async () => {
    const { deps, file } = noteWorld()
    mkdirSync(deps.paths.daily, { recursive: true })
    writeFileSync(file, '---\ndate: [oops\n---\n# hand-written\n')
    await expect(appendNote(deps, 'anything')).rejects.toMatchObject({ code: 'NOTE_MALFORMED' })
    expect(readFileSync(file, 'utf8')).toBe('---\ndate: [oops\n---\n# hand-written\n')
  })
})
