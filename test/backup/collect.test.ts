import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { collectNoteFiles } from '../../src/backup/collect.js'
import { makeWorkspace } from '../helpers/workspace.js'

describe('collectNoteFiles', () => {
  it('lists every note sorted by path, each with its absolute file, nested folders included', async () => {
    const ws = makeWorkspace({
      'notes/memory/MEMORY.md': 'memory\n',
      'notes/daily/2026-11-21.md': 'day 21\n',
      'notes/daily/2026-11-20.md': 'day 20\n',
      'notes/memory/days/2026-11-20.md': 'a day page\n',
      'notes/memory/days/deeper/café-東京.md': 'non-ASCII\n',
    })
    const notes = await collectNoteFiles(ws.paths)
    expect(notes.map((note) => note.path)).toEqual([
      'notes/daily/2026-11-20.md',
      'notes/daily/2026-11-21.md',
      'notes/memory/MEMORY.md',
      'notes/memory/days/2026-11-20.md',
      'notes/memory/days/deeper/café-東京.md',
    ])
    for (const note of notes) {
      expect(note.file).toBe(join(ws.paths.workspace, ...note.path.split('/')))
      expect(readFileSync(note.file, 'utf8')).not.toBe('')
    }
  })
})
