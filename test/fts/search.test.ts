import { describe, expect, it } from 'vitest'
import { refreshIndex } from '../../src/fts/refresh.js'
import { searchIndex } from '../../src/fts/search.js'
import { makeIndexWorld, type IndexWorld } from './fixture.js'

const NOTES = {
  'notes/memory/project.md': [
    '---',
    'title: projects',
    '---',
    '# Projects',
    '',
    'We moved the billing service to Postgres last spring.',
    'Deadline: 2026-03-14 (a:b testing NEAR the end).',
  ].join('\n'),
  'notes/memory/user.md': '# User\nAlex likes tea. Tea in the morning, tea at night: tea, tea, tea.\n',
  'notes/daily/2026-03-01.md': '# Sunday\nHad tea with Sam. 🦄 emoji day. C++ and C# talk.\n',
  'notes/daily/2026-03-02.md': '# Monday\nCafé visit; résumé sent, budget cut 50%.\n',
  'skills/dream/SKILL.md': '# Dream\nNEAR( AND OR NOT - * : ( ) "quoted" words\n',
}

async function world(): Promise<IndexWorld> {
  const created = makeIndexWorld(NOTES)
  await refreshIndex(created)
  return created
}

describe('searchIndex', () => {
  const NASTY_QUERIES = [
    '"',
    '""',
    'AND',
    'OR NOT',
    '-foo',
    'a:b',
    '(',
    ')',
    '*',
    'tea*',
    'NEAR(',
    'NEAR(tea sam, 2)',
    'title:projects',
    '^tea',
    '{body}: tea',
    '🦄',
    'emoji 🦄',
    '',
    '   ',
    '\u0000tea',
    '"unbalanced',
    "it's",
    'C++',
    'x'.repeat(5000),
    Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '),
  ]

  it.each(NASTY_QUERIES.map((query) => ({ query, label: JSON.stringify(query).slice(0, 40) })))(
    'never throws on $label',
    async ({ query }) => {
      const ws = await world()
      const hits = await searchIndex({ ...ws, query, refresh: false })
      expect(Array.isArray(hits)).toBe(true)
      for (const hit of hits) expect(hit).toEqual(expect.objectContaining({ path: expect.any(String) }))
    },
  )

  it('treats operator words and symbols as plain text', async () => {
    const ws = await world()
    const near = await searchIndex({ ...ws, query: 'NEAR(', refresh: false })
    expect(near.map((hit) => hit.path).sort()).toEqual(['notes/memory/project.md', 'skills/dream/SKILL.md'])
    const colon = await searchIndex({ ...ws, query: 'a:b', refresh: false })
    expect(colon.map((hit) => hit.path)).toEqual(['notes/memory/project.md'])
    const emoji = await searchIndex({ ...ws, query: '🦄', refresh: false })
    expect(emoji.map((hit) => hit.path)).toEqual(['notes/daily/2026-03-01.md'])
    expect(await searchIndex({ ...ws, query: '', refresh: false })).toEqual([])
  })

  it('ranks the file with more matches first (bm25), higher score first', async () => {
    const ws = await world()
    const hits = await searchIndex({ ...ws, query: 'tea', refresh: false })
    expect(hits.map((hit) => hit.path)).toEqual(['notes/memory/user.md', 'notes/daily/2026-03-01.md'])
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Infinity)
  })

  it('gives the line of the match and a snippet with it marked', async () => {
    const ws = await world()
    const [hit] = await searchIndex({ ...ws, query: 'postgres', refresh: false })
    expect(hit).toMatchObject({
      path: 'notes/memory/project.md',
      line: 6,
      snippet: 'We moved the billing service to «Postgres» last spring.',
    })
  })

  it('ANDs the terms, then falls back to OR when nothing has them all', async () => {
    const ws = await world()
    const both = await searchIndex({ ...ws, query: 'tea sam', refresh: false })
    expect(both.map((hit) => hit.path)).toEqual(['notes/daily/2026-03-01.md'])
    const either = await searchIndex({ ...ws, query: 'postgres sam', refresh: false })
    const eitherPaths = either.map((hit) => hit.path).sort()
    expect(eitherPaths).toEqual(['notes/daily/2026-03-01.md', 'notes/memory/project.md'])
  })

  it('keeps a quoted phrase together and a trailing * as a prefix', async () => {
    const ws = await world()
    const phrase = await searchIndex({ ...ws, query: '"billing service"', refresh: false })
    expect(phrase.map((hit) => hit.path)).toEqual(['notes/memory/project.md'])
    expect(await searchIndex({ ...ws, query: '"service billing"', refresh: false })).toEqual([])
    const prefix = await searchIndex({ ...ws, query: 'postg*', refresh: false })
    expect(prefix.map((hit) => hit.path)).toEqual(['notes/memory/project.md'])
  })

  it('falls back to substrings: ostgre in Postgres, short pieces, wildcards taken literally', async () => {
    const ws = await world()
    const [trigram] = await searchIndex({ ...ws, query: 'ostgre', refresh: false })
    expect(trigram).toMatchObject({ path: 'notes/memory/project.md', line: 6 })
    expect(trigram?.snippet).toContain('P«ostgre»s')
    const like = await searchIndex({ ...ws, query: 'ré', refresh: false })
    expect(like.map((hit) => hit.path)).toEqual(['notes/daily/2026-03-02.md'])
    expect(like[0]?.snippet).toBe('Café visit; «ré»sumé sent, budget cut 50%.')
    expect(await searchIndex({ ...ws, query: 'ea_', refresh: false })).toEqual([])
    const percent = await searchIndex({ ...ws, query: '0%', refresh: false })
    expect(percent.map((hit) => hit.snippet)).toEqual(['Café visit; résumé sent, budget cut 5«0%».'])
  })

  it('folds case and diacritics', async () => {
    const ws = await world()
    const hits = await searchIndex({ ...ws, query: 'CAFE resume', refresh: false })
    expect(hits.map((hit) => hit.path)).toEqual(['notes/daily/2026-03-02.md'])
  })

  it('filters by path prefix and honours the limit', async () => {
    const ws = await world()
    const daily = await searchIndex({ ...ws, query: 'tea', pathPrefix: './notes/daily/', refresh: false })
    expect(daily.map((hit) => hit.path)).toEqual(['notes/daily/2026-03-01.md'])
    const one = await searchIndex({ ...ws, query: 'tea', limit: 1, refresh: false })
    expect(one).toHaveLength(1)
  })

  it('refreshes first by default, so a new note is found', async () => {
    const ws = await world()
    const { writeFileAtomic } = await import('../../src/notes/atomic-write.js')
    await writeFileAtomic(ws.abs('notes/memory/reference.md'), '# Reference\nLocker code is in the vault.\n')
    const hits = await searchIndex({ ...ws, query: 'vault' })
    expect(hits.map((hit) => [hit.path, hit.line])).toEqual([['notes/memory/reference.md', 2]])
  })

  it('points a hit at the live value, and ranks hits that only match struck-through text last', async () => {
    const ws = makeIndexWorld({
      'notes/memory/user.md': [
        '# User',
        '',
        '- ~~**Works at:** Acme Corp~~ — superseded 2026-11-02 → Globex [[2026-11-02]]',
        '- **Works at:** Globex [[2026-11-02]]',
      ].join('\n'),
      // The old employer, struck through and repeated so bm25 alone would rank this file first.
      'notes/memory/project.md': '# Projects\n\n- ~~Acme Corp offsite, Acme Corp badge, Acme Corp laptop~~\n',
      'notes/daily/2026-10-01.md': '# Thursday\n\nLunch with the Acme Corp team.\n',
    })
    await refreshIndex(ws)
    const [employer] = await searchIndex({ ...ws, query: 'works at', refresh: false })
    expect(employer).toMatchObject({ path: 'notes/memory/user.md', line: 4 })
    expect(employer?.snippet).toContain('Globex')
    const acme = await searchIndex({ ...ws, query: 'acme corp', refresh: false })
    expect(acme[0]?.path).toBe('notes/daily/2026-10-01.md')
    expect(acme.slice(1).map((hit) => hit.path)).toEqual(['notes/memory/project.md', 'notes/memory/user.md'])
  })

  it('reports the line of a match deep in a long file', async () => {
    const lines = Array.from({ length: 150 }, (_, i) => (i === 120 ? 'the needle is here' : `filler ${i}`))
    const ws = makeIndexWorld({ 'notes/long.md': lines.join('\n') })
    await refreshIndex(ws)
    const [hit] = await searchIndex({ ...ws, query: 'needle', refresh: false })
    expect(hit).toMatchObject({ line: 121, snippet: 'the «needle» is here' })
  })
})
