import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createDreamlane } from '../../src/create.js'
import { EMPTY_USAGE, type ModelProvider } from '../../src/model/provider.js'
import { initWorkspace } from '../../src/notes/init-workspace.js'
import { runCli } from '../helpers/cli.js'
import { makeMessagesDb, makeWorkspace } from '../helpers/workspace.js'

/** A model turn that holds the dream (and so the workspace lock) until the test lets it go. */
function heldTurn(): { provider: ModelProvider; entered: Promise<void>; release: () => void } {
  let release!: () => void
  let enter!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const entered = new Promise<void>((resolve) => (enter = resolve))
  const provider: ModelProvider = {
    name: 'held',
    async runTurn() {
      enter()
      await released
      return { stop: 'end', text: 'Nothing to add.', transcript: [], usage: EMPTY_USAGE }
    },
  }
  return { provider, entered, release }
}

describe('dreamlane backups restore, as a process', () => {
  it('refuses with exit code 5 while a dream holds the lock, touching nothing; restores once it is done', async () => {
    const ws = makeWorkspace()
    await initWorkspace(ws.paths)
    const today = new Date().toISOString().slice(0, 10)
    makeMessagesDb(ws.paths, [
      { chatJid: 'web:main', content: 'We ship Atlas on Friday.', timestamp: `${today}T00:00:01.000Z` },
    ]).close()
    const userMd = join(ws.paths.memory, 'user.md')
    const args = ['--workspace', ws.dir, '--json']
    const made = await runCli([...args, 'backups', 'create'])
    const backupId = (JSON.parse(made.stdout) as { id: string }).id
    writeFileSync(userMd, '# User\n\n- Edited after the backup.\n')

    const turn = heldTurn()
    const dreamlane = createDreamlane({ workspace: ws.dir, env: { TZ: 'UTC' }, provider: turn.provider })
    onTestFinished(() => dreamlane.shutdown())
    const dream = dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 1 })
    await turn.entered

    const refused = await runCli([...args, 'backups', 'restore', backupId])
    expect(refused.code).toBe(5)
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { code: 'LOCK_HELD' } })
    expect(readFileSync(userMd, 'utf8')).toBe('# User\n\n- Edited after the backup.\n')

    turn.release()
    expect((await dream).status).not.toBe('skipped')
    const restored = await runCli([...args, 'backups', 'restore', backupId])
    expect(restored.code).toBe(0)
    expect(readFileSync(userMd, 'utf8')).not.toContain('Edited after the backup')
  }, 60_000)
})
