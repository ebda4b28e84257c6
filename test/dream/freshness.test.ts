// Fact freshness through real dreams: months of a test clock over one workspace, the offline engine writing,
// the lifecycle's freshness pass, the loss guard and the FTS index all real.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { searchIndex } from '../../src/fts/search.js'
import { createOfflineProvider } from '../../src/model/offline/engine.js'
import { parseEntries } from '../../src/model/offline/memory-file.js'
import { createScriptedProvider } from '../../src/model/scripted.js'
import { createLookupToolSet } from '../../src/tools/tool-set.js'
import type { RecalledHit } from '../../src/tools/types.js'
import { makeDreamWorld } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'

const said = (timestamp: string, content: string): MessageSpec => ({
  chatJid: 'web:main',
  content,
  timestamp,
})

const HISTORY: MessageSpec[] = [
  said('2026-01-05T09:00:00.000Z', 'I love hiking.'),
  said('2026-01-05T09:01:00.000Z', 'I love jazz.'),
  said('2026-01-05T09:02:00.000Z', 'I live in Porto.'),
  said('2026-02-10T09:00:00.000Z', 'I love jazz.'),
  said('2026-06-20T09:00:00.000Z', 'I love hiking.'),
]

describe('fact freshness over months of dreams', () => {
  it('creates, reinforces, decays, archives (still searchable) and revives a fact', async () => {
    const world = await makeDreamWorld(HISTORY)
    const dreamlane = world.open({ provider: createOfflineProvider() })
    const userMd = (): string => readFileSync(join(world.paths.memory, 'user.md'), 'utf8')
    const entry = (key: string) => parseEntries(userMd()).find((candidate) => candidate.key === key)
    const dreamOn = async (iso: string, days: number) => {
      world.clock.set(iso)
      const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days })
      expect(run.status).toBe('succeeded')
      return run
    }
    const keyOf = (pattern: RegExp): string =>
      parseEntries(userMd()).find((e) => pattern.test(e.visible))?.key ?? 'none'

    // January: the three facts are new, stated once.
    await dreamOn('2026-01-06T20:00:00.000Z', 2)
    const key = keyOf(/hiking/)
    expect(entry(key)).toMatchObject({ day: '2026-01-05', isArchived: false })
    const jazz = parseEntries(userMd()).find((e) => /jazz/.test(e.visible))
    expect(jazz).toBeDefined()
    const city = keyOf(/Porto/)
    expect(entry(city)).toMatchObject({ value: 'Porto', isArchived: false })
    expect(userMd()).not.toContain('seen:')

    // February: jazz is stated again on a new day — one reinforcement; a second dream over it counts nothing.
    await dreamOn('2026-02-10T20:00:00.000Z', 1)
    expect(userMd()).toContain(`key: ${jazz?.key}; seen: 2026-01-05..2026-02-10 x2 -->`)
    const afterFebruary = userMd()
    await dreamOn('2026-02-10T21:00:00.000Z', 1)
    expect(userMd()).toBe(afterFebruary)

    // May 19, 134 days after hiking was said: 0.5 × 0.5^(104/45) = 0.1008, still above the floor.
    await dreamOn('2026-05-19T20:00:00.000Z', 1)
    expect(entry(key)?.isArchived).toBe(false)
    // May 20, day 135: 0.5 × 0.5^(105/45) = 0.0992 < 0.10 → archived, whole, key comment and all.
    // Jazz (last said Feb 10, once reinforced): 0.6 × 0.5^(69/45) = 0.2073, stays.
    const before = userMd()
      .split('\n')
      .find((line) => new RegExp(`key: ${key}[; ]`).test(line))
    const archiving = await dreamOn('2026-05-20T20:00:00.000Z', 1)
    // The loss guard sees a move, not a loss: nothing dropped, nothing flagged, the run kept.
    expect(archiving.changes?.factsDropped).toBe(0)
    expect(archiving.lossFlags).toEqual([])
    const archived = userMd()
    expect(archived.split('\n')).toContain(before)
    expect(archived.indexOf(before ?? '')).toBeGreaterThan(archived.indexOf('## Archive'))
    expect(archived.indexOf('### Preferences')).toBeGreaterThan(archived.indexOf('## Archive'))
    expect(entry(key)?.isArchived).toBe(true)
    expect(entry(jazz?.key ?? '')?.isArchived).toBe(false)
    // Where the user lives is who they are: said as long ago as hiking, it lasts.
    expect(entry(city)?.isArchived).toBe(false)
    // MEMORY.md counts live facts only: the archived taste is no longer one of them.
    expect(readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8')).toContain(
      'who the user is: Porto (2 facts)',
    )

    // Still findable: the full-text search over memory files finds the archived line.
    const hits = await searchIndex({
      state: dreamlane.state,
      paths: world.paths,
      config: world.config,
      query: 'hiking',
      pathPrefix: 'notes/memory',
    })
    expect(hits.map((hit) => hit.path)).toContain('notes/memory/user.md')
    // And so does search_workspace, the tool a chat or MCP turn searches memory with.
    const tools = createLookupToolSet(
      { paths: world.paths, config: world.config, messages: dreamlane.messages, state: dreamlane.state },
      world.clock,
      () => {},
      {},
    )
    const served = await tools.call('search_workspace', { query: 'hiking' })
    expect(served.ok).toBe(true)
    const found = (JSON.parse(served.content) as { hits: RecalledHit[] }).hits.find(
      (hit) => hit.path === 'notes/memory/user.md',
    )
    expect(found?.snippet).toContain('hiking')
    expect(found?.line).toBeGreaterThan(archived.split('\n').indexOf('## Archive'))

    // June 20: hiking is said again — the fact comes back out of the archive, reinforced.
    await dreamOn('2026-06-20T20:00:00.000Z', 1)
    expect(entry(key)).toMatchObject({ isArchived: false, lastSeen: '2026-06-20' })
    expect(userMd()).toContain(`key: ${key}; seen: 2026-01-05..2026-06-20 x2 -->`)
    // Jazz, meanwhile, has faded to 0.6 × 0.5^(100/45) = 0.1286 on day 130: lower, still live.
    expect(entry(jazz?.key ?? '')?.isArchived).toBe(false)
    // The emptied archive group is gone; the revived line is the archived one with its new seen field.
    expect(userMd()).not.toContain('## Archive')
    expect(readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8')).toContain(
      'who the user is: Porto (3 facts)',
    )
    await dreamlane.close()
  })

  it('revives a fact a model restated with a new day link, in the pass after its turn', async () => {
    const archivedJazz = '- I love jazz [[2026-01-05]] <!-- key: user.pref.jazz -->'
    const before = `# User\n\n## Preferences\n\n## Archive\n\n### Preferences\n\n${archivedJazz}\n`
    const world = await makeDreamWorld()
    writeFileSync(join(world.paths.memory, 'user.md'), before)
    // The model only adds the day it heard the fact again (2026-11-20), as the dream skill asks.
    const restated = before.replace('[[2026-01-05]]', '[[2026-01-05]] [[2026-11-20]]')
    const provider = createScriptedProvider([
      { tool: 'write_file', input: { path: 'notes/memory/user.md', content: restated } },
      { text: 'Jazz restated.' },
    ])
    const dreamlane = world.open({ provider })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('succeeded')
    // The new day counts in the fact's seen field (the fact-keys pass), and the archive it left empty is gone,
    // heading and all.
    const line = archivedJazz
      .replace('[[2026-01-05]]', '[[2026-01-05]] [[2026-11-20]]')
      .replace(' -->', '; seen: 2026-01-05..2026-11-20 x2 -->')
    expect(readFileSync(join(world.paths.memory, 'user.md'), 'utf8')).toBe(
      `# User\n\n## Preferences\n\n${line}\n`,
    )
    await dreamlane.close()
  })
})
