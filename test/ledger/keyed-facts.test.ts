import { describe, expect, it } from 'vitest'
import { droppedKeyedFacts, keyedFactOf } from '../../src/ledger/keyed-facts.js'
import { guardMemory } from '../../src/ledger/loss-guard.js'
import { DEFAULTS } from '../../src/config/defaults.js'
import { refreshFactFile } from '../../src/notes/fact-archive.js'
import { makeLedgerWorld, writesFiles } from './world.js'

const USER = 'notes/memory/user.md'

/** Five keyed facts as people and the offline engine write them. */
const FACTS = [
  '- **Works at:** Acme Robotics since 2019',
  '- **City: Porto** — I moved to Porto [[2026-11-18]] <!-- key: user.city; value: Porto -->',
  '- **Partner:** Kai',
  '- **Diet:** vegetarian',
  '- **Favourite band: Radiohead** — I love Radiohead [[2026-11-02]] <!-- key: user.favourite.band; value: Radiohead -->',
]
const USER_MD = `# User\n\n## Facts\n\n${FACTS.join('\n')}\n`
/** The same five facts' words, kept only as a prose paragraph: every term survives, no fact bullet does. */
const PROSE_MD =
  '# User\n\nWorks at Acme Robotics since 2019; moved to Porto [[2026-11-18]]; partner Kai; diet: vegetarian; ' +
  'favourite band Radiohead, loves Radiohead [[2026-11-02]].\n'

describe('keyed-fact bullets', () => {
  it.each([
    ['a bold label', '- **Works at:** Acme', 'Works at:'],
    ['a key comment', '- I live in Porto <!-- key: user.city; value: Porto -->', 'user.city'],
    ['an engine headline', FACTS[1]!, 'City: Porto'],
    ['a superseded entry', '- ~~**City: Lisbon** — Lisbon [[2026-10-01]]~~ — superseded', 'City: Lisbon'],
  ])('recognises %s', (_what, line, label) => {
    expect(keyedFactOf(line)?.label).toBe(label)
  })

  it.each([['- plain bullet with **bold** later'], ['**Works at:** not a bullet'], ['# **Heading**']])(
    'ignores %s',
    (line) => expect(keyedFactOf(line)).toBeNull(),
  )

  it('keeps a fact rewritten in place, superseded, or moved to another memory file', async () => {
    const before = [{ path: USER, text: USER_MD }]
    const struck = USER_MD.replace(
      '- **Partner:** Kai',
      '- ~~**Partner:** Kai~~ — superseded 2026-11-20 → Ana',
    )
    const reworded = USER_MD.replace(
      '— I moved to Porto [[2026-11-18]]',
      '— moved here in autumn [[2026-11-19]]',
    )
    expect(await droppedKeyedFacts(before, [struck], async () => [])).toEqual([])
    expect(await droppedKeyedFacts(before, [reworded], async () => [])).toEqual([])
    const moved = USER_MD.replace('- **Diet:** vegetarian\n', '')
    expect(await droppedKeyedFacts(before, [moved], async () => ['- **Diet:** vegetarian\n'])).toEqual([])
  })

  it('flags every fact bullet a turn wiped, although all their words survive', async () => {
    const result = await guardMemory({
      contents: [{ path: USER, before: Buffer.from(USER_MD), after: Buffer.from(PROSE_MD) }],
      manifest: [{ path: USER, size: USER_MD.length, sha256: '0'.repeat(64) }],
      readUnchangedMemory: async () => [],
    })
    const facts = result.flags.filter((flag) => flag.kind === 'fact')
    expect(facts.map((flag) => flag.term)).toEqual([
      'Works at:',
      'City: Porto',
      'Partner:',
      'Diet:',
      'Favourite band: Radiohead',
    ])
    // Not one name, number or date vanished: only the structure did.
    expect(result.flags.filter((flag) => flag.kind !== 'fact')).toEqual([])
  })

  it('holds a scripted turn that wipes five fact bullets from user.md, and leaves the notes as they were', async () => {
    const world = await makeLedgerWorld()
    world.write(USER, USER_MD)
    const dreamlane = world.open({ provider: writesFiles({ [USER]: PROSE_MD }) })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('held')
    expect(run.holdReasons).toContain(
      '5 keyed fact bullet(s) would be dropped from memory: Works at:, City: Porto, Partner:, Diet:, Favourite band: Radiohead',
    )
    expect(world.read(USER)).toBe(USER_MD)
    await dreamlane.close()
  })

  it('keeps the same turn under review "never", with the flags still recorded', async () => {
    const world = await makeLedgerWorld()
    world.write(USER, USER_MD)
    const dreamlane = world.open({ review: 'never', provider: writesFiles({ [USER]: PROSE_MD }) })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('succeeded')
    expect(run.lossFlags.filter((flag) => flag.kind === 'fact')).toHaveLength(5)
    expect(world.read(USER)).toBe(PROSE_MD)
    await dreamlane.close()
  })
})

describe('the loss guard and the fact archive', () => {
  const JAZZ = '- I love jazz [[2026-11-10]] <!-- key: user.pref.jazz -->'
  const BAND =
    '- **Favourite band: Radiohead** — Radiohead, always [[2026-01-05]] <!-- key: user.favourite.band; value: Radiohead -->'
  /** Two tastes last said in January (faded by NOW, 2026-11-21), one said this month, and a city that lasts. */
  const OLD_MD = [
    '# User',
    '',
    '## Identity',
    '',
    '- **City: Porto** — I live in Porto [[2026-01-05]] <!-- key: user.city; value: Porto -->',
    '',
    '## Preferences',
    '',
    BAND,
    '- I love tea [[2026-01-06]] <!-- key: user.pref.tea -->',
    JAZZ,
    '',
  ].join('\n')
  const otherWork = { 'notes/memory/reference.md': '# Reference\n\n## Reference\n\n- Wi-Fi: porto-home\n' }

  it('sees a move under ## Archive as no loss', async () => {
    const after = refreshFactFile(OLD_MD, '2026-11-21', DEFAULTS.memory.freshness, 'user.md')
    expect(after).toContain(`## Archive\n\n### Preferences\n\n${BAND}\n- I love tea`)
    const result = await guardMemory({
      contents: [{ path: USER, before: Buffer.from(OLD_MD), after: Buffer.from(after) }],
      manifest: [{ path: USER, size: OLD_MD.length, sha256: '0'.repeat(64) }],
      readUnchangedMemory: async () => [],
    })
    expect(result.flags).toEqual([])
    expect(result.factsDropped).toBe(0)
    expect(result.memoryBytesRemoved).toBe(0)
  })

  it('keeps a dream whose freshness pass archives faded facts', async () => {
    const world = await makeLedgerWorld()
    world.write(USER, OLD_MD)
    const dreamlane = world.open({ provider: writesFiles(otherWork) })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('succeeded')
    expect(run.lossFlags).toEqual([])
    const archived = world.read(USER)
    expect(archived.indexOf(BAND)).toBeGreaterThan(archived.indexOf('## Archive'))
    expect(archived.indexOf('- **City: Porto**')).toBeLessThan(archived.indexOf('## Archive'))
    expect(archived.indexOf(JAZZ)).toBeLessThan(archived.indexOf('## Archive'))
    await dreamlane.close()
  })

  it('still holds a turn that drops a keyed bullet while the pass archives the others', async () => {
    const world = await makeLedgerWorld()
    world.write(USER, OLD_MD)
    const dreamlane = world.open({ provider: writesFiles({ [USER]: OLD_MD.replace(`${JAZZ}\n`, '') }) })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.status).toBe('held')
    expect(run.holdReasons).toContain('1 keyed fact bullet(s) would be dropped from memory: user.pref.jazz')
    expect(world.read(USER)).toBe(OLD_MD)
    await dreamlane.close()
  })
})
