// `dreamlane forget` through the real CLI: the preview touches nothing, --yes removes, --list and --undo, and
// every refusal is a usage error (exit 2) with its code in --json; without --purge-backups the output names the
// backups that still hold it, and with it every one of them is rewritten (read back from the zips).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listBackups } from '../../src/backup/list.js'
import { readBackupFiles, verifyBackup } from '../../src/backup/verify.js'
import { runCli } from '../helpers/cli.js'
import { makeDreamWorld, type DreamWorld } from '../helpers/dream-world.js'
import { makeWorkspace } from '../helpers/workspace.js'

const HISTORY = [
  {
    chatJid: 'web:main',
    content: 'My dentist is Dr Sousa, on Rua Formosa.',
    timestamp: '2026-11-20T09:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'I moved to Porto last month and I love it.',
    timestamp: '2026-11-20T10:00:00.000Z',
  },
  {
    chatJid: 'web:main',
    content: 'Booked a cleaning with Dr Sousa for Friday. Also we decided to use Postgres for Atlas.',
    timestamp: '2026-11-21T10:00:00.000Z',
  },
]

const MENTION = /dentist|sousa/i

/** Per backup, read back from its zip: which notes mention it, and whether any note still names Porto. */
async function backupsRead(
  world: DreamWorld,
): Promise<Map<string, { mentioning: string[]; porto: boolean }>> {
  const found = new Map<string, { mentioning: string[]; porto: boolean }>()
  for (const backup of await listBackups(world.paths)) {
    await verifyBackup(backup.file)
    const files = [...(await readBackupFiles(backup.file))].map(([path, bytes]) => [
      path,
      bytes.toString('utf8'),
    ])
    found.set(backup.id, {
      mentioning: files.filter(([, text]) => MENTION.test(text as string)).map(([path]) => path as string),
      porto: files.some(([, text]) => (text as string).includes('Porto')),
    })
  }
  return found
}

const USER = '# User\n\n- **Dentist: Dr Sousa** — said so <!-- key: user.dentist -->\n- **City: Porto**\n'

describe('dreamlane forget', () => {
  it('previews, removes with --yes, lists and undoes', async () => {
    const ws = makeWorkspace({ 'notes/memory/user.md': USER })
    const cli = (...args: string[]) => runCli(['-w', ws.dir, ...args])
    const preview = await cli('forget', 'my', 'dentist')
    expect(preview.code, preview.stderr).toBe(0)
    expect(preview.stdout).toContain('notes/memory/user.md:3 (fact) - **Dentist: Dr Sousa**')
    expect(preview.stdout).toContain('Run again with --yes')
    expect(readFileSync(join(ws.dir, 'notes/memory/user.md'), 'utf8')).toBe(USER)

    const done = await cli('forget', 'my', 'dentist', '--yes')
    expect(done.code, done.stderr).toBe(0)
    expect(done.stdout).toMatch(/^Forgotten \(forget-/)
    expect(readFileSync(join(ws.dir, 'notes/memory/user.md'), 'utf8')).toBe('# User\n\n- **City: Porto**\n')
    const list = JSON.parse((await cli('--json', 'forget', '--list')).stdout)
    expect(list).toMatchObject([{ what: 'my dentist', status: 'active' }])

    const undone = await cli('forget', '--undo')
    expect(undone.code, undone.stderr).toBe(0)
    expect(readFileSync(join(ws.dir, 'notes/memory/user.md'), 'utf8')).toBe(USER)
  })

  it.each([
    [['forget'], 'USAGE'],
    [['forget', 'dentist', '--purge-backups'], 'USAGE'],
    [['forget', 'my'], 'FORGET_INVALID'],
    [['forget', '--undo'], 'FORGET_NOT_UNDOABLE'],
  ])('%j is refused with exit 2 (%s)', async (args, code) => {
    const ws = makeWorkspace({ 'notes/memory/user.md': USER })
    const result = await runCli(['-w', ws.dir, '--json', ...args])
    expect(result.code).toBe(2)
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, error: { code } })
  })

  it('names every backup that still holds it, and --purge-backups rewrites each of them, not only the newest', async () => {
    const world = await makeDreamWorld(HISTORY)
    const dreamlane = world.open()
    // Two dreams: the second one's backup holds the dentist, the first one's (of the fresh template) does not.
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    world.clock.advanceMs(60_000)
    await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await dreamlane.close()
    const cli = (...args: string[]) => runCli(['-w', world.dir, '--json', ...args])

    const first = await cli('forget', 'my', 'dentist', '--yes')
    expect(first.code, first.stderr).toBe(0)
    const done = JSON.parse(first.stdout)
    const holding = [...(await backupsRead(world))].filter(([, read]) => read.mentioning.length > 0)
    // The forget's own backup and the second dream's: both named, newest first, and nothing else.
    expect(holding).toHaveLength(2)
    expect(done.backupsHolding).toEqual(holding.map(([id]) => id))
    expect(done.message).toContain(`Still held by backup(s): ${holding.map(([id]) => id).join(', ')}`)
    const clean = [...(await backupsRead(world))].filter(([, read]) => read.mentioning.length === 0)
    const cleanBytes = await Promise.all(
      (await listBackups(world.paths))
        .filter((backup) => clean.some(([id]) => id === backup.id))
        .map((backup) => readFileSync(backup.file)),
    )

    // Forgotten again with the flag, as the output suggests: the live notes no longer name the dentist, and the
    // backups still do, with "Dr Sousa" in lines that never say "dentist".
    const again = await cli('forget', 'my', 'dentist', '--yes', '--purge-backups')
    expect(again.code, again.stderr).toBe(0)
    const purged = JSON.parse(again.stdout)
    expect([...purged.purgedBackups].sort()).toEqual(holding.map(([id]) => id).sort())
    expect(purged.backupsHolding).toEqual([])
    for (const [id, read] of await backupsRead(world)) {
      expect(read.mentioning, id).toEqual([])
      if (holding.some(([held]) => held === id)) expect(read.porto, id).toBe(true)
    }
    // A backup that never held it is left byte for byte.
    const after = (await listBackups(world.paths)).filter((backup) => clean.some(([id]) => id === backup.id))
    expect(after.map((backup) => readFileSync(backup.file))).toEqual(cleanBytes)
  }, 120_000)
})
