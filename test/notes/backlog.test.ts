import { describe, expect, it } from 'vitest'
import { readBacklog } from '../../src/notes/backlog.js'
import { dailyNotePath } from '../../src/notes/paths.js'
import { makeWorkspace } from '../helpers/workspace.js'

function note(day: string, summarisedUntil: string | null, summary: string, extra = ''): string {
  const until = summarisedUntil === null ? 'null' : `'${summarisedUntil}'`
  return `---
date: '${day}'
summarised_until: ${until}
messages_total: 4
messages_user: 2
messages_assistant: 2
session_trees: 1
session_chats: 1
first_message: '${day}T08:00:00.000Z'
last_message: '${day}T20:00:00.000Z'
scope_mode: local-day
scope_anchor: '${day} UTC'
---
# Title

## Summary

${summary}
${extra}`
}

const FILES = {
  'notes/daily/2026-11-15.md': note('2026-11-15', '2026-11-15T20:00:00.000Z', 'All done.'),
  'notes/daily/2026-11-16.md': note('2026-11-16', null, '<!-- NEEDS_SUMMARY -->'),
  'notes/daily/2026-11-17.md': note('2026-11-17', null, 'Written, no watermark.'),
  'notes/daily/2026-11-18.md': note('2026-11-18', '2026-11-18T12:00:00.000Z', 'Morning only.'),
  'notes/daily/2026-11-19.md': note(
    '2026-11-19',
    '2026-11-19T20:00:00.000Z',
    'Day.',
    '\n## Summary update (21:05)\n\n<!-- NEEDS_SUMMARY_UPDATE -->\n',
  ),
  'notes/daily/2026-11-20.md': note('2026-11-20', null, 'x').replace("date: '2026-11-20'", 'date: [oops'),
  'notes/daily/2026-11-21.md': note('2026-11-22', null, '<!-- NEEDS_SUMMARY -->'),
  'notes/daily/.2026-11-14.md.123.tmp': 'junk',
  'notes/daily/README.md': 'not a day',
}

describe('readBacklog', () => {
  it('lists every note that is not complete with its state and a reason, oldest first', async () => {
    const ws = makeWorkspace(FILES)
    const backlog = await readBacklog(ws.paths)
    expect(backlog.map((entry) => [entry.day, entry.state])).toEqual([
      ['2026-11-16', 'unsummarised'],
      ['2026-11-17', 'missing_watermark'],
      ['2026-11-18', 'partial'],
      ['2026-11-19', 'partial'],
      ['2026-11-20', 'malformed'],
      ['2026-11-21', 'malformed'],
    ])
    expect(backlog[0]?.path).toBe(dailyNotePath(ws.paths, '2026-11-16'))
    expect(backlog[2]?.reason).toMatch(/summarised_until 2026-11-18T12:00:00.000Z is before last_message/)
    expect(backlog[3]?.reason).toMatch(/update \(21:05\) pending/)
    expect(backlog[4]?.reason).toMatch(/date/)
    expect(backlog[5]?.reason).toMatch(/'2026-11-22' is not 2026-11-21/)
  })

  it('looks only at the given days and skips days without a note', async () => {
    const ws = makeWorkspace(FILES)
    const backlog = await readBacklog(ws.paths, ['2026-11-18', '2026-11-15', '2026-11-30'])
    expect(backlog.map((entry) => entry.day)).toEqual(['2026-11-18'])
  })

  it('is empty without a notes/daily folder and when every note is complete', async () => {
    const ws = makeWorkspace()
    expect(await readBacklog(ws.paths)).toEqual([])
    const done = makeWorkspace({
      'notes/daily/2026-11-18.md': note('2026-11-18', '2026-11-18T20:00:00.000Z', 'Done.'),
    })
    expect(await readBacklog(done.paths)).toEqual([])
  })
})
