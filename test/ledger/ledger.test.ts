import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBackup } from '../../src/backup/create.js'
import { fixedClock } from '../../src/clock.js'
import { readBackupEntries } from '../../src/ledger/backup-entries.js'
import { diffTexts } from '../../src/ledger/diff.js'
import { collectRunContents, describeChange } from '../../src/ledger/ledger.js'
import { renderChanges } from '../../src/ledger/render.js'
import { sha256 } from '../../src/ledger/files.js'
import { makeWorkspace } from '../helpers/workspace.js'

describe('the change ledger', () => {
  it('diffs a modified file with counts and a/ b/ headers', () => {
    const diff = diffTexts(
      'notes/memory/user.md',
      '# User\n- Lisbon\n- tea\n',
      '# User\n- Porto\n- tea\n- cats\n',
    )
    expect(diff).toEqual({
      diff: '--- a/notes/memory/user.md\n+++ b/notes/memory/user.md\n@@ -1,3 +1,4 @@\n # User\n-- Lisbon\n+- Porto\n - tea\n+- cats\n',
      linesAdded: 2,
      linesRemoved: 1,
      tooLarge: false,
    })
  })

  it('describes added and removed files against /dev/null, with hashes and sizes', () => {
    const added = describeChange({
      path: 'notes/memory/days/2026-11-21.md',
      before: null,
      after: Buffer.from('# Day\n'),
    })
    expect(added).toMatchObject({
      change: 'added',
      beforeSha256: null,
      afterSha256: sha256(Buffer.from('# Day\n')),
      afterBytes: 6,
      linesAdded: 1,
      linesRemoved: 0,
    })
    expect(added.diff.split('\n').slice(0, 2)).toEqual([
      '--- /dev/null',
      '+++ b/notes/memory/days/2026-11-21.md',
    ])
    const removed = describeChange({
      path: 'notes/daily/2026-11-20.md',
      before: Buffer.from('a\nb\n'),
      after: null,
    })
    expect(removed).toMatchObject({ change: 'removed', afterSha256: null, linesRemoved: 2 })
  })

  it('counts a rewrite too large to diff as whole-file', () => {
    const big = 'x\n'.repeat(600_000)
    expect(diffTexts('notes/memory/user.md', big, `${big}y\n`)).toEqual({
      diff: '',
      linesAdded: 600_001,
      linesRemoved: 600_000,
      tooLarge: true,
    })
  })

  it('reads only the written files from the backup, skipping identical rewrites and paths outside the notes', async () => {
    const ws = makeWorkspace({
      'notes/memory/user.md': '- a\n',
      'notes/memory/project.md': '- p\n',
      'notes/daily/2026-11-20.md': 'd\n',
    })
    const backup = await createBackup({
      paths: ws.paths,
      mode: 'manual',
      chatJid: 'web:main',
      clock: fixedClock('2026-11-21T01:00:00Z'),
      keep: 5,
    })
    writeFileSync(join(ws.paths.memory, 'user.md'), '- a\n- b\n')
    writeFileSync(join(ws.paths.memory, 'feedback.md'), '- new\n')
    const written = ['user.md', 'project.md', 'feedback.md'].map((name) => join(ws.paths.memory, name))
    const contents = await collectRunContents(ws.dir, backup, [...written, join(ws.dir, 'README.md')])
    expect(contents.map((c) => [c.path, c.before?.toString() ?? null, c.after?.toString() ?? null])).toEqual([
      ['notes/memory/feedback.md', null, '- new\n'],
      ['notes/memory/user.md', '- a\n', '- a\n- b\n'],
    ])
  })

  it('reads backup entries only when they match the hash it trusts', async () => {
    const ws = makeWorkspace({ 'notes/daily/2026-11-20.md': 'd\n' })
    const backup = await createBackup({
      paths: ws.paths,
      mode: 'manual',
      chatJid: 'web:main',
      clock: fixedClock('2026-11-21T01:00:00Z'),
      keep: 5,
    })
    const daily = 'notes/daily/2026-11-20.md'
    const entries = await readBackupEntries(backup.file, new Map([[daily, sha256(Buffer.from('d\n'))]]))
    expect(entries.get(daily)?.toString()).toBe('d\n')
    await expect(
      readBackupEntries(backup.file, new Map([[daily, sha256(Buffer.from('other\n'))]])),
    ).rejects.toMatchObject({ code: 'BACKUP_CORRUPT' })
    await expect(
      readBackupEntries(backup.file, new Map([['notes/memory/nope.md', '0'.repeat(64)]])),
    ).rejects.toThrow(/missing from the backup/)
  })

  it('renders diffs plain or coloured', () => {
    const change = describeChange({
      path: 'notes/memory/user.md',
      before: Buffer.from('a\n'),
      after: Buffer.from('b\n'),
    })
    const plain = renderChanges([change])
    expect(plain.split('\n').slice(-2)).toEqual(['-a', '+b'])
    expect(plain).not.toContain('\x1b[')
    expect(renderChanges([change], { color: true })).toContain('\x1b[31m-a\x1b[0m')
    expect(renderChanges([])).toBe('no files changed')
  })
})
