import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runIndexPass } from '../../src/dream/index-pass.js'
import { insertUnderHeading } from '../../src/notes/markdown.js'
import { makeWorkspace } from '../helpers/workspace.js'

describe('index pass', () => {
  it('adds pointers for unlinked days/ pages and keeps every existing byte', async () => {
    const original =
      '# Memory\n\nModel wrote this — keep it.\n\n## Days\n\n- 2026-11-20: see [days/2026-11-20.md](days/2026-11-20.md)\n\n## Other\n\ntext\n'
    const ws = makeWorkspace({
      'notes/memory/MEMORY.md': original,
      'notes/memory/days/2026-11-20.md': 'x',
      'notes/memory/days/2026-11-21.md': 'y',
      'notes/memory/days/notes.md': 'not a day page',
    })
    const pages = ['2026-11-20', '2026-11-21', 'notes'].map((name) => join(ws.paths.days, `${name}.md`))
    const changed = await runIndexPass(ws.paths, pages)
    const after = readFileSync(join(ws.paths.memory, 'MEMORY.md'), 'utf8')
    expect(changed).toEqual([join(ws.paths.memory, 'MEMORY.md')])
    expect(after).toBe(
      original.replace(
        '(days/2026-11-20.md)\n',
        '(days/2026-11-20.md)\n- 2026-11-21: see [days/2026-11-21.md](days/2026-11-21.md)\n',
      ),
    )
    expect(await runIndexPass(ws.paths, pages)).toEqual([])
  })

  it('does not bring back a pointer to a page this run did not write', async () => {
    const ws = makeWorkspace({
      'notes/memory/MEMORY.md': '# Memory\n',
      'notes/memory/days/2026-01-01.md': 'old',
    })
    expect(await runIndexPass(ws.paths, [])).toEqual([])
  })

  it('changes nothing when MEMORY.md is missing or there are no pages', async () => {
    const ws = makeWorkspace({ 'notes/memory/user.md': 'u' })
    expect(await runIndexPass(ws.paths, [join(ws.paths.days, '2026-11-20.md')])).toEqual([])
  })

  it('creates the section at the end when absent', () => {
    expect(insertUnderHeading('# M\n\nx', '## Days', ['- a'])).toBe('# M\n\nx\n\n## Days\n\n- a\n')
  })
})
