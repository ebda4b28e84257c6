// Forget on request, end to end on a real workspace: the offline engine dreams a fact in, forget takes it out of
// the notes and the index, later dreams over the same messages leave it out, and undo puts it back.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readBackupFiles } from '../../src/backup/verify.js'
import { listBackups } from '../../src/backup/list.js'
import type { StateDb } from '../../src/db/state.js'
import { searchIndex } from '../../src/fts/search.js'
import { LedgerStore } from '../../src/ledger/store.js'
import { makeDreamWorld, type DreamWorld } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'

const HISTORY: MessageSpec[] = [
  {
    chatJid: 'web:main',
    content: 'My dentist is Dr Sousa, on Rua Formosa.',
    timestamp: '2026-11-20T09:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'Noted, Dr Sousa.',
    timestamp: '2026-11-20T09:00:05.000Z',
    isBotMessage: true,
  },
  {
    chatJid: 'web:main',
    content: 'I moved to Porto last month and I love it.',
    timestamp: '2026-11-20T10:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'Nice! Porto is lovely.',
    timestamp: '2026-11-20T10:00:05.000Z',
    isBotMessage: true,
  },
  {
    chatJid: 'web:main',
    content: 'Booked a cleaning with Dr Sousa for Friday. Also we decided to use Postgres for Atlas.',
    timestamp: '2026-11-21T10:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'Good luck at the dentist!',
    timestamp: '2026-11-21T10:00:04.000Z',
    isBotMessage: true,
  },
]

const MENTION = /dentist|sousa/i

/** Every note under notes/ whose text mentions it. */
function notesMentioning(world: DreamWorld, pattern: RegExp): string[] {
  const notes = join(world.dir, 'notes')
  return readdirSync(notes, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(world.dir, file).split(sep).join('/'))
}

async function indexHits(world: DreamWorld, state: StateDb, query: string): Promise<string[]> {
  const hits = await searchIndex({ state, paths: world.paths, config: world.config, query })
  return hits.map((hit) => hit.snippet)
}

describe('forget', () => {
  it('previews exactly what goes, removes it from notes and index, and three later dreams leave it out', async () => {
    const world = await makeDreamWorld(HISTORY)
    const dreamlane = world.open()
    expect((await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })).status).toBe('succeeded')
    const before = notesMentioning(world, MENTION)
    expect(before).toContain('notes/memory/user.md')

    const preview = await dreamlane.previewForget('my dentist')
    expect(preview.phrases).toEqual(expect.arrayContaining(['dentist', 'dr sousa']))
    expect([...new Set(preview.items.map((item) => item.path))].sort()).toEqual(
      before.filter((p) => p !== 'notes/DREAMS.md').sort(),
    )
    for (const item of preview.items) expect(item.text).toMatch(MENTION)
    // The preview touched nothing.
    expect(notesMentioning(world, MENTION)).toEqual(before)

    const result = await dreamlane.forget('my dentist', { token: preview.token })
    expect(result.items).toEqual(preview.items)
    expect(notesMentioning(world, MENTION)).toEqual([])
    expect(await indexHits(world, dreamlane.state, 'Sousa')).toEqual([])
    expect(await indexHits(world, dreamlane.state, 'dentist')).toEqual([])
    // What did not mention it stays.
    expect(readFileSync(join(world.dir, 'notes/memory/user.md'), 'utf8')).toContain('Porto')
    // The backup taken first holds it; the output says so.
    expect(result.backupId).not.toBeNull()
    expect(result.backupsHolding).toContain(result.backupId)
    expect(result.message).toContain('Still held by backup(s)')
    // Recorded in the change ledger under the forget's id.
    expect(new LedgerStore(dreamlane.state).list(result.id).map((change) => change.path)).toEqual(
      preview.files,
    )

    for (let dream = 0; dream < 3; dream++) {
      world.clock.advanceMs(60_000)
      const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
      expect(run.status).toBe('succeeded')
      expect(notesMentioning(world, MENTION)).toEqual([])
    }
    expect(await indexHits(world, dreamlane.state, 'Sousa')).toEqual([])
    // Nor do the logs: run records (tool calls, transcripts, summaries) and the dreams' ledger diffs.
    const runs = dreamlane.listRuns({ limit: 50 })
    expect(JSON.stringify(runs)).not.toMatch(MENTION)
    const ledger = new LedgerStore(dreamlane.state)
    for (const run of runs) for (const change of ledger.list(run.id)) expect(change.diff).not.toMatch(MENTION)
    await dreamlane.close()
  })

  it('undo restores every note byte for byte until the next dream, then it stays forgotten', async () => {
    const world = await makeDreamWorld(HISTORY)
    const dreamlane = world.open()
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const snapshot = snapshotNotes(world)
    const first = await dreamlane.forget('Dr Sousa')
    expect(snapshotNotes(world)).not.toEqual(snapshot)
    const undone = await dreamlane.undoForget()
    expect(undone.tombstone).toMatchObject({ id: first.id, status: 'undone' })
    expect(snapshotNotes(world)).toEqual(snapshot)
    expect((await indexHits(world, dreamlane.state, 'Sousa')).length).toBeGreaterThan(0)

    const second = await dreamlane.forget('Dr Sousa')
    world.clock.advanceMs(60_000)
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await expect(dreamlane.undoForget(second.id)).rejects.toMatchObject({ code: 'FORGET_NOT_UNDOABLE' })
    // Sealed by that dream: the ledger keeps the forget's hashes and counts, not the text in its diffs.
    const sealed = new LedgerStore(dreamlane.state).list(second.id)
    expect(sealed.length).toBeGreaterThan(0)
    for (const change of sealed) expect(change.diff).toBe('')
    expect(notesMentioning(world, /sousa/i)).toEqual([])
    await dreamlane.close()
  })

  it('--purge-backups rewrites every backup that held it, and says it cannot be undone', async () => {
    const world = await makeDreamWorld(HISTORY)
    const dreamlane = world.open()
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    world.clock.advanceMs(60_000)
    // The second dream's pre-dream backup holds it, and so does the forget's own.
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const result = await dreamlane.forget('dentist', { purgeBackups: true })
    expect(result.purgedBackups).toHaveLength(2)
    expect(result.purgedBackups).toContain(result.backupId)
    for (const backup of await listBackups(world.paths))
      for (const [path, content] of await readBackupFiles(backup.file))
        expect(`${path}: ${content.toString('utf8')}`).not.toMatch(MENTION)
    expect(result.message).toContain('cannot be undone')
    await expect(dreamlane.undoForget()).rejects.toMatchObject({ code: 'FORGET_NOT_UNDOABLE' })
    await dreamlane.close()
  })

  it('refuses a request that names nothing, and a stale preview token', async () => {
    const world = await makeDreamWorld(HISTORY)
    const dreamlane = world.open()
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await expect(dreamlane.previewForget('my')).rejects.toMatchObject({ code: 'FORGET_INVALID' })
    const preview = await dreamlane.previewForget('dentist')
    await expect(dreamlane.forget('Porto', { token: preview.token })).rejects.toMatchObject({
      code: 'FORGET_INVALID',
    })
    expect(notesMentioning(world, /Porto/)).not.toEqual([])
    await dreamlane.close()
  })
})

function snapshotNotes(world: DreamWorld): Record<string, string> {
  const notes = join(world.dir, 'notes')
  const out: Record<string, string> = {}
  for (const entry of readdirSync(notes, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === 'DREAMS.md') continue
    const file = join(entry.parentPath, entry.name)
    out[relative(world.dir, file)] = readFileSync(file, 'utf8')
  }
  return out
}
