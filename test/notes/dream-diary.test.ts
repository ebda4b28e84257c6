import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  DIARY_HEADER,
  appendDiaryEntry,
  diaryPath,
  renderDiaryEntry,
  type DiaryEntry,
} from '../../src/notes/dream-diary.js'
import { createScriptedProvider } from '../../src/model/scripted.js'
import { makeDreamWorld } from '../helpers/dream-world.js'

function entry(at: string, overrides: Partial<DiaryEntry> = {}): DiaryEntry {
  return {
    at,
    kind: 'dream',
    mode: 'auto',
    runId: `run-${at.replace(/\D/g, '')}`,
    status: 'succeeded',
    read: '2 day(s) (2026-11-24..2026-11-25), 12 tool call(s)',
    changed: '3 file(s) (+10 −2)',
    unresolved: 'none',
    changedFiles: 3,
    promoted: 0,
    ...overrides,
  }
}

describe('the dream diary', () => {
  it('groups one line per run under its month, newest month last', () => {
    let text = ''
    text = appendDiaryEntry(text, entry('2026-10-30 01:00'), 100_000)
    text = appendDiaryEntry(
      text,
      entry('2026-11-01 01:00', { kind: 'sweep', mode: 'deep', promoted: 2 }),
      100_000,
    )
    text = appendDiaryEntry(text, entry('2026-11-02 01:00'), 100_000)
    expect(text.startsWith(DIARY_HEADER)).toBe(true)
    expect(text.match(/^## .*$/gm)).toEqual(['## 2026-10', '## 2026-11'])
    expect(text).toContain(
      '- 2026-11-01 01:00 · sweep deep · succeeded · run-202611010100 — read 2 day(s) (2026-11-24..2026-11-25), 12 tool call(s); changed 3 file(s) (+10 −2); unresolved: none <!-- files: 3; promoted: 2 -->',
    )
  })

  it('rolls older months up, oldest first, to stay within its budget — never the current month', () => {
    let text = ''
    for (let day = 1; day <= 20; day++) {
      const dd = String(day).padStart(2, '0')
      text = appendDiaryEntry(text, entry(`2026-09-${dd} 01:00`), 100_000)
      text = appendDiaryEntry(text, entry(`2026-10-${dd} 01:00`, { kind: 'sweep', promoted: 1 }), 100_000)
    }
    const budget = Buffer.byteLength(text) - 1000
    const next = appendDiaryEntry(text, entry('2026-11-01 01:00'), budget)
    expect(Buffer.byteLength(next)).toBeLessThanOrEqual(budget)
    expect(next).toContain(
      '## 2026-09 (rolled up)\n\n- 20 dream(s), 0 sweep(s), 0 undo(s); 60 file change(s), 0 promotion(s)',
    )
    // One roll-up was enough: October keeps its lines.
    expect(next.match(/^- 2026-10-\d\d/gm)).toHaveLength(20)
    expect(next).toContain('## 2026-11\n\n- 2026-11-01 01:00')
    // A budget the current month alone exceeds still keeps every current line.
    const tiny = appendDiaryEntry(next, entry('2026-11-02 01:00'), 1000)
    expect(tiny).toContain(
      '## 2026-10 (rolled up)\n\n- 0 dream(s), 20 sweep(s), 0 undo(s); 60 file change(s), 20 promotion(s)',
    )
    expect(tiny.match(/^- 2026-11-0\d/gm)).toHaveLength(2)
  })

  it('keeps an entry on one line whatever the run said', () => {
    const line = renderDiaryEntry(entry('2026-11-01 01:00', { changed: 'a\nb <!-- x --> c' }))
    expect(line.split('\n')).toHaveLength(1)
    expect(line.match(/<!--/g)).toHaveLength(1)
  })

  it('a dream appends what it read, changed and left unresolved; a skipped one appends nothing', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open({
      provider: createScriptedProvider([
        {
          tool: 'write_file',
          input: { path: 'notes/memory/user.md', content: '# User\n\n- Lives in Porto\n' },
        },
        { text: 'done' },
      ]),
    })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const diary = readFileSync(diaryPath(world.paths), 'utf8')
    expect(diary).toContain(
      `· dream manual · succeeded · ${run.id} — read 2 day(s) (2026-11-20..2026-11-21), 1 tool call(s); changed ${run.changes?.files} file(s)`,
    )
    expect(diary).toContain('unresolved: 2026-11-20 (unsummarised), 2026-11-21 (unsummarised)')
    dreamlane.setAutoDream(false)
    expect((await dreamlane.dream({ mode: 'auto', chatJid: 'web:main', days: 2 })).status).toBe('skipped')
    expect(readFileSync(diaryPath(world.paths), 'utf8')).toBe(diary)
    await dreamlane.close()
  })

  it('is no model tool target: a dream cannot write its own diary', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open({
      provider: createScriptedProvider([
        { tool: 'write_file', input: { path: 'notes/DREAMS.md', content: '# forged\n' } },
        { text: 'done' },
      ]),
    })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.toolCalls.map((call) => [call.name, call.ok])).toContainEqual(['write_file', false])
    expect(readFileSync(diaryPath(world.paths), 'utf8')).not.toContain('forged')
    await dreamlane.close()
  })
})
