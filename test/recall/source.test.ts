// The exclusion rule (no dream-written text counts as recall) and the block a hit stands for.
import { describe, expect, it } from 'vitest'
import {
  MAX_BLOCK_LINES,
  chunkKeyOf,
  classifyLines,
  excludedPath,
  findBlock,
  hashText,
  locateBlock,
  splitLines,
} from '../../src/recall/source.js'
import { dailyNote } from '../tools/world.js'

function blockAt(path: string, text: string, line: number) {
  const lines = splitLines(text)
  return locateBlock(lines, classifyLines(path, lines), line)
}

describe('excludedPath', () => {
  it.each([
    ['notes/memory/MEMORY.md', 'promotion-target'],
    ['notes/DREAMS.md', 'dream-diary'],
    ['notes/.hidden/x.md', 'hidden'],
    ['notes/.MEMORY.md.123.ab.tmp', 'hidden'],
    ['notes/x.md.tmp', 'hidden'],
    ['../outside.md', 'outside'],
    ['notes/../../etc/passwd', 'outside'],
    ['/etc/passwd', 'outside'],
  ])('%s → %s', (path, reason) => {
    expect(excludedPath(path)).toBe(reason)
  })

  it.each([
    'notes/projects/atlas.md',
    'skills/cooking/SKILL.md',
    'notes/daily/2026-11-20.md',
    'notes/memoryish.md',
    'notes/memory/user.md',
    'notes/memory/days/2026-11-20.md',
    'notes/memory/archive/DREAMS.md',
  ])('lets %s through (its lines are judged one by one)', (path) => {
    expect(excludedPath(path)).toBeNull()
  })
})

describe('classifyLines', () => {
  it('marks front matter, comment blocks and marker-only lines as metadata in any note', () => {
    const text =
      '---\ntitle: x\n---\n# Atlas\n<!-- a\nhidden\n-->\nvisible <!-- inline --> text\n<!-- NEEDS_SUMMARY -->\nplain'
    const verdicts = classifyLines('notes/atlas.md', splitLines(text))
    expect(verdicts).toEqual([
      'metadata',
      'metadata',
      'metadata',
      null,
      'metadata',
      'metadata',
      'metadata',
      // An inline comment hides only itself: a keyed fact's `<!-- key: … -->` leaves the fact recallable.
      null,
      'metadata',
      null,
    ])
  })

  it('never counts a line carrying a promotion marker, wherever it was copied to', () => {
    const text =
      '# User\n\n- Lives in Porto <!-- key: user.city; value: Porto -->\n- Oolong at 80°C — [notes/tea.md:3](../tea.md) <!-- recall:0123456789ab -->\n'
    expect(classifyLines('notes/memory/user.md', splitLines(text))).toEqual([
      null,
      null,
      null,
      'promoted',
      null,
    ])
  })

  it("counts a daily note's dream-written summaries and excludes only the seeded scaffolding above them", () => {
    const note = dailyNote('2026-11-20', 'Alex booked the ferry to Porto.')
    const withPreface = note.replace('\n## Summary', '\nAlex added this line by hand.\n\n## Summary')
    const lines = splitLines(withPreface)
    const verdicts = classifyLines('notes/daily/2026-11-20.md', lines)
    const byText = (needle: string) => verdicts[lines.findIndex((line) => line.includes(needle))]
    expect(byText('Alex booked the ferry')).toBeNull()
    expect(byText('## Summary')).toBeNull()
    expect(byText('# Friday, November 20, 2026')).toBe('daily-scaffold')
    expect(byText('← [[')).toBe('daily-scaffold')
    expect(byText('messages_total:')).toBe('metadata')
    expect(byText('Alex added this line by hand.')).toBeNull()
  })

  it('counts summary updates too; below a summary nothing is scaffolding', () => {
    const text = '# Notes\n\n## Summary update (14:05)\n\n---\nLater facts.\n'
    const verdicts = classifyLines('notes/daily/2026-11-20.md', splitLines(text))
    expect(verdicts[0]).toBe('daily-scaffold')
    expect(verdicts.slice(2)).toEqual([null, null, null, null, null])
  })
})

describe('locateBlock', () => {
  const note = [
    '# People', //            1
    '', //                    2
    "- Maya is Alex's sister", // 3
    '  she lives in Porto', //  4
    '- Sam runs the kite shop', // 5
    '', //                    6
    'Paragraph one line one', // 7
    'paragraph one line two', // 8
    '', //                    9
    '## Plans', //           10
    'Visit Porto in March', // 11
  ].join('\n')

  it('takes a list item with its continuation lines, from either line', () => {
    expect(blockAt('notes/people.md', note, 3)).toMatchObject({ startLine: 3, endLine: 4 })
    expect(blockAt('notes/people.md', note, 4)).toMatchObject({ startLine: 3, endLine: 4 })
    expect(blockAt('notes/people.md', note, 5)).toMatchObject({
      startLine: 5,
      endLine: 5,
      text: '- Sam runs the kite shop',
    })
  })

  it('takes a paragraph; a heading hit counts for the first block under it (blank lines or not)', () => {
    expect(blockAt('notes/people.md', note, 8)).toMatchObject({ startLine: 7, endLine: 8 })
    expect(blockAt('notes/people.md', note, 10)).toMatchObject({ startLine: 11, endLine: 11 })
    expect(blockAt('notes/people.md', note, 1)).toMatchObject({ startLine: 3, endLine: 4 })
    expect(blockAt('notes/x.md', '# Empty\n## Next\ntext', 1)).toMatchObject({
      startLine: 1,
      endLine: 1,
      text: '# Empty',
    })
  })

  it(`caps a long paragraph at ${MAX_BLOCK_LINES} lines, starting at the hit when it is far down`, () => {
    const long = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n')
    expect(blockAt('notes/long.md', long, 2)).toMatchObject({ startLine: 1, endLine: MAX_BLOCK_LINES })
    expect(blockAt('notes/long.md', long, 15)).toMatchObject({
      startLine: 15,
      endLine: 15 + MAX_BLOCK_LINES - 1,
    })
  })

  it('refuses blank and out-of-range lines and excluded ones, with the reason', () => {
    expect(blockAt('notes/people.md', note, 2)).toBe('blank')
    expect(blockAt('notes/people.md', note, 99)).toBe('blank')
    expect(blockAt('notes/people.md', note, 0)).toBe('blank')
    expect(blockAt('notes/x.md', '---\na: 1\n---\ntext', 2)).toBe('metadata')
  })

  it('never lets a block run into excluded lines', () => {
    const text = 'interactive line\n<!-- marker -->\nmore'
    expect(blockAt('notes/x.md', text, 1)).toMatchObject({ startLine: 1, endLine: 1 })
  })

  it('hashes the block text (CRLF like LF) into a path:lines:hash key', () => {
    const lf = blockAt('notes/people.md', note, 5)
    const crlf = blockAt('notes/people.md', note.replaceAll('\n', '\r\n'), 5)
    expect(lf).toEqual(crlf)
    if (typeof lf === 'string') throw new Error('expected a block')
    expect(lf.hash).toBe(hashText('- Sam runs the kite shop'))
    expect(lf.hash).toMatch(/^[0-9a-f]{12}$/)
    expect(chunkKeyOf('notes/people.md', lf)).toBe(`notes/people.md:5-5:${lf.hash}`)
  })
})

describe('findBlock', () => {
  const text = 'intro\n\n- Maya lives in Porto\n'
  const hash = hashText('- Maya lives in Porto')

  it('finds the block at its lines, or where it moved to', () => {
    expect(findBlock('notes/p.md', text, { startLine: 3, endLine: 3, hash })).toMatchObject({ startLine: 3 })
    expect(
      findBlock('notes/p.md', `new first line\n${text}`, { startLine: 3, endLine: 3, hash }),
    ).toMatchObject({ startLine: 4 })
  })

  it('returns null once the text is edited away or sits in excluded lines', () => {
    expect(
      findBlock('notes/p.md', text.replace('Porto', 'Lisbon'), { startLine: 3, endLine: 3, hash }),
    ).toBeNull()
    expect(findBlock('notes/p.md', `<!--\n${text}-->`, { startLine: 3, endLine: 3, hash })).toBeNull()
  })
})
