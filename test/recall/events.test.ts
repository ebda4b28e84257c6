// Recall events: appended per served hit on interactive turns only, never from dream turns or promoted text.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { normaliseQuery, queryHash, recallRecorder, recordRecall } from '../../src/recall/events.js'
import { hashText } from '../../src/recall/source.js'
import { ensureRecallSchema } from '../../src/recall/store.js'
import { dailyNote } from '../tools/world.js'
import { DAY_MS, NOTES, makeRecallWorld } from './world.js'

describe('query hash', () => {
  it('is sha1 of the normalised query, 12 hex, equal for case and spacing variants', () => {
    expect(normaliseQuery('  Kite\tShop  ')).toBe('kite shop')
    expect(queryHash('kite shop')).toMatch(/^[0-9a-f]{12}$/)
    expect(queryHash('  KITE   shop ')).toBe(queryHash('kite shop'))
    expect(queryHash('kite shops')).not.toBe(queryHash('kite shop'))
  })
})

describe('recording through search_workspace', () => {
  it('appends one event per served chunk with key, query hash, score, relevance, day and chat', async () => {
    const world = makeRecallWorld()
    const hits = await world.search('kite shop')
    expect(hits.map((hit) => hit.path)).toEqual(['notes/people.md'])
    const [event, ...rest] = world.eventRows()
    expect(rest).toEqual([])
    const hash = hashText('- Sam runs the kite shop on Harbour Street')
    expect(event).toMatchObject({
      chunk_key: `notes/people.md:4-4:${hash}`,
      query_hash: queryHash('kite shop'),
      score: hits[0]?.score,
      relevance: 1,
      day: '2026-11-10',
      at_ms: Date.parse('2026-11-10T09:00:00Z'),
      chat_jid: 'alex@chat',
    })
  })

  it('records nothing for dream turns, even with a recorder wired in', async () => {
    const world = makeRecallWorld()
    const hits = await world.search('kite shop', { isDream: true })
    expect(hits).toHaveLength(1)
    ensureRecallSchema(world.state)
    expect(world.eventRows()).toEqual([])
  })

  it('records hits inside memory files and dream-written daily summaries', async () => {
    const note = dailyNote('2026-11-09', 'Alex talked about Maya and the Porto trip.')
    const world = makeRecallWorld({ ...NOTES, 'notes/daily/2026-11-09.md': note })
    const hits = await world.search('Maya')
    expect(hits.map((hit) => hit.path).sort()).toEqual([
      'notes/daily/2026-11-09.md',
      'notes/memory/user.md',
      'notes/people.md',
    ])
    expect(
      world
        .eventRows()
        .map((row) => row.chunk_key.split(':')[0])
        .sort(),
    ).toEqual(['notes/daily/2026-11-09.md', 'notes/memory/user.md', 'notes/people.md'])
  })

  it("never records a dream's searches of the same files, nor MEMORY.md, the diary or promoted lines", async () => {
    const promoted = "- Alex's sister Maya — [notes/people.md:3](../people.md) <!-- recall:0123456789ab -->"
    const world = makeRecallWorld({
      ...NOTES,
      'notes/daily/2026-11-09.md': dailyNote('2026-11-09', 'Alex talked about Maya and the Porto trip.'),
      'notes/memory/MEMORY.md': `# Memory\n\n## Promoted from recall\n\n${promoted}\n`,
      'notes/memory/reference.md': `# Reference\n\n${promoted}\n`,
      'notes/DREAMS.md': '# Dream diary\n\n- 2026-11-09 auto: read Maya notes\n',
    })
    expect((await world.search('Maya', { isDream: true })).length).toBeGreaterThan(3)
    ensureRecallSchema(world.state)
    expect(world.eventRows()).toEqual([])
    const hits = await world.search('Maya')
    const paths = hits.map((hit) => hit.path)
    expect(paths).toEqual(
      expect.arrayContaining(['notes/memory/MEMORY.md', 'notes/memory/reference.md', 'notes/DREAMS.md']),
    )
    const recorded = world.eventRows().map((row) => row.chunk_key.split(':')[0])
    expect(recorded).not.toContain('notes/memory/MEMORY.md')
    expect(recorded).not.toContain('notes/memory/reference.md')
    expect(recorded).not.toContain('notes/DREAMS.md')
    expect(recorded).toContain('notes/memory/user.md')
  })

  it('counts text a person added to a daily note above its summary', async () => {
    const note = dailyNote('2026-11-09', 'Summary by the dream.').replace(
      '\n## Summary',
      '\nRemember the zeppelin tickets.\n\n## Summary',
    )
    const world = makeRecallWorld({ ...NOTES, 'notes/daily/2026-11-09.md': note })
    await world.search('zeppelin')
    expect(world.eventRows().map((row) => row.chunk_key)).toEqual([
      expect.stringMatching(/^notes\/daily\/2026-11-09\.md:\d+-\d+:[0-9a-f]{12}$/),
    ])
  })

  it('appends without touching earlier rows, and counts days in the configured zone', async () => {
    const world = makeRecallWorld(NOTES, '2026-11-10T23:30:00Z')
    await world.search('kite')
    const first = world.eventRows()
    world.clock.advanceMs(DAY_MS)
    await world.search('Harbour Street')
    const rows = world.eventRows()
    expect(rows.slice(0, first.length)).toEqual(first)
    expect(rows.map((row) => row.day)).toEqual(['2026-11-10', '2026-11-11'])
    const tokyo = recordRecall(world.state, {
      query: 'kite',
      hits: [{ path: 'notes/people.md', line: 4, snippet: '', score: 2 }],
      chatJid: 'alex@chat',
      at: new Date('2026-11-10T23:30:00Z'),
      workspace: world.paths.workspace,
      timeZone: 'Asia/Tokyo',
    })
    expect(tokyo.recorded).toBe(1)
    expect(world.eventRows().at(-1)?.day).toBe('2026-11-11')
  })
})

describe('recordRecall', () => {
  const at = new Date('2026-11-10T09:00:00Z')

  it('refuses dream channels outright', () => {
    const world = makeRecallWorld()
    const result = recordRecall(world.state, {
      query: 'kite',
      hits: [{ path: 'notes/people.md', line: 4, snippet: '', score: 1 }],
      chatJid: 'dream:manual:alex@chat:1',
      at,
      workspace: world.paths.workspace,
    })
    expect(result).toMatchObject({ recorded: 0, skipped: [{ reason: 'dream-chat' }] })
  })

  it('merges hits on one chunk, scores relevance against the best hit, and names every skip', () => {
    const world = makeRecallWorld()
    const result = recordRecall(world.state, {
      query: 'atlas',
      hits: [
        { path: 'notes/projects/atlas.md', line: 3, snippet: '', score: 8 },
        { path: 'notes/projects/atlas.md', line: 1, snippet: '', score: 6 },
        { path: 'notes/projects/atlas.md', line: 7, snippet: '', score: 2 },
        { path: 'notes/gone.md', line: 1, snippet: '', score: 1 },
        { path: 'notes/memory/MEMORY.md', line: 1, snippet: '', score: 1 },
        { path: 'notes/people.md', line: 2, snippet: '', score: 1 },
      ],
      chatJid: 'alex@chat',
      at,
      workspace: world.paths.workspace,
    })
    expect(result.skipped.map((skip) => skip.reason)).toEqual(['missing', 'promotion-target', 'blank'])
    // Line 1 is the heading: it counts for the paragraph under it, the chunk line 3 already hit (best score kept).
    const rows = world.eventRows().map((row) => [row.chunk_key.split(':')[1], row.relevance])
    expect(rows).toEqual([
      ['3-3', 1],
      ['7-7', 0.25],
    ])
  })

  it('reads a file edited since indexing as it is now', () => {
    const world = makeRecallWorld()
    writeFileSync(join(world.paths.workspace, 'notes/people.md'), '# People\n\n- Sam sold the kite shop\n')
    recordRecall(world.state, {
      query: 'kite',
      hits: [{ path: 'notes/people.md', line: 3, snippet: '', score: 1 }],
      chatJid: 'alex@chat',
      at,
      workspace: world.paths.workspace,
    })
    expect(world.eventRows()[0]?.chunk_key).toBe(
      `notes/people.md:3-3:${hashText('- Sam sold the kite shop')}`,
    )
  })
})

describe('recallRecorder', () => {
  it('compacts events past the horizon once every `compactEvery` events', () => {
    const world = makeRecallWorld()
    const record = recallRecorder({
      state: world.state,
      workspace: world.paths.workspace,
      chatJid: 'alex@chat',
      clock: world.clock,
      timeZone: 'UTC',
      compactAfterDays: 10,
      compactEvery: 4,
    })
    const hit = { path: 'notes/people.md', line: 4, snippet: '', score: 1 }
    for (let i = 0; i < 3; i++) record(`kite ${i}`, [hit])
    world.clock.advanceMs(20 * DAY_MS)
    expect(world.eventRows()).toHaveLength(3)
    record('kite late', [hit]) // the 4th event: the three old ones fold into totals
    expect(world.eventRows().map((row) => row.query_hash)).toEqual([queryHash('kite late')])
    const totals = world.state.prepare('SELECT recalls FROM recall_totals').all()
    expect(totals).toEqual([{ recalls: 3 }])
  })

  it('hands errors to onError when given, and throws them otherwise', () => {
    const world = makeRecallWorld()
    const errors: unknown[] = []
    const options = {
      workspace: world.paths.workspace,
      chatJid: 'alex@chat',
      clock: world.clock,
      timeZone: 'UTC',
    }
    const hit = { path: 'notes/people.md', line: 4, snippet: '', score: 1 }
    world.state.close()
    recallRecorder({ ...options, state: world.state, onError: (error) => errors.push(error) })('kite', [hit])
    expect(errors).toHaveLength(1)
    expect(() => recallRecorder({ ...options, state: world.state })('kite', [hit])).toThrow(/not open/)
  })
})
