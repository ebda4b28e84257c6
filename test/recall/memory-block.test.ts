// MEMORY.md entries: one line, a stable marker per chunk key, note text that cannot break the markup.
import { describe, expect, it } from 'vitest'
import {
  PROMOTED_HEADING,
  insertEntries,
  markerIdOf,
  markersIn,
  renderEntry,
} from '../../src/recall/memory-block.js'

const STAMP = { day: '2026-11-25', score: 0.8166 }

const source = {
  path: 'notes/people.md',
  startLine: 3,
  endLine: 4,
  text: "- Maya is Alex's sister\n  she lives in Porto",
}

describe('renderEntry', () => {
  it('is one line: the flattened text, a relative link with the line range, and the marker', () => {
    const entry = renderEntry(source, 'abcdef012345', '/ws/notes/memory', '/ws', STAMP)
    expect(entry).toBe(
      "- Maya is Alex's sister she lives in Porto — [notes/people.md:3-4](../people.md) (2026-11-25, score 0.82) <!-- recall:abcdef012345 -->",
    )
  })

  it('cannot open or close a comment, or hide the marker, whatever the note says', () => {
    const hostile = { ...source, text: 'a <!-- b --> c -- d <script>' }
    const entry = renderEntry(hostile, 'abcdef012345', '/ws/notes/memory', '/ws', STAMP)
    expect(entry.split('<!--')).toHaveLength(2)
    expect(entry.split('-->')).toHaveLength(2)
    expect(markersIn(entry)).toEqual(new Set(['abcdef012345']))
  })

  it('clips long blocks to a short pointer', () => {
    const entry = renderEntry(
      { ...source, text: 'word '.repeat(200) },
      'abcdef012345',
      '/ws/notes/memory',
      '/ws',
      STAMP,
    )
    expect(entry.length).toBeLessThan(260)
    expect(entry).toContain('…')
  })
})

describe('markers', () => {
  it('are 12 hex, stable per chunk key, different across keys', () => {
    expect(markerIdOf('notes/a.md:1-1:aaaaaaaaaaaa')).toMatch(/^[0-9a-f]{12}$/)
    expect(markerIdOf('notes/a.md:1-1:aaaaaaaaaaaa')).toBe(markerIdOf('notes/a.md:1-1:aaaaaaaaaaaa'))
    expect(markerIdOf('notes/a.md:1-1:aaaaaaaaaaaa')).not.toBe(markerIdOf('notes/a.md:2-2:aaaaaaaaaaaa'))
  })
})

describe('insertEntries', () => {
  it('creates the section once at the end, then adds to its end, keeping sections after it', () => {
    const first = insertEntries('# Memory\n\n- user.md\n', ['- one'], 10_000)
    expect(first.text).toBe(`# Memory\n\n- user.md\n\n${PROMOTED_HEADING}\n\n- one\n`)
    const withDays = `${first.text}\n## Days\n\n- 2026-11-20\n`
    const second = insertEntries(withDays, ['- two'], 10_000)
    expect(second.text).toBe(
      `# Memory\n\n- user.md\n\n${PROMOTED_HEADING}\n\n- one\n- two\n\n## Days\n\n- 2026-11-20\n`,
    )
  })

  it('leaves out entries that would pass the budget and still tries smaller later ones', () => {
    const base = '# Memory\n'
    const heading = Buffer.byteLength(`\n${PROMOTED_HEADING}\n\n\n`)
    const budget = Buffer.byteLength(base) + heading + 10
    const result = insertEntries(base, ['- far too long for the budget', '- short'], budget)
    expect(result.added).toEqual(['- short'])
    expect(result.overBudget).toEqual(['- far too long for the budget'])
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(budget)
  })

  it('adds nothing to a file already over budget and never trims it', () => {
    const big = `# Memory\n${'x'.repeat(600)}\n`
    const result = insertEntries(big, ['- a'], 500)
    expect(result).toEqual({ text: big, added: [], overBudget: ['- a'] })
  })
})
