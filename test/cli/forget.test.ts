// `dreamlane forget` through the real CLI: the preview touches nothing, --yes removes, --list and --undo, and
// every refusal is a usage error (exit 2) with its code in --json.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { makeWorkspace } from '../helpers/workspace.js'

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
})
