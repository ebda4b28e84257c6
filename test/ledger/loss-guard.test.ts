import { describe, expect, it } from 'vitest'
import { boilerplateOf, guardMemory } from '../../src/ledger/loss-guard.js'
import type { ChangedContent } from '../../src/ledger/types.js'
import { makeLedgerWorld, writesFiles } from './world.js'

const USER = 'notes/memory/user.md'

function change(path: string, before: string | null, after: string | null): ChangedContent {
  return {
    path,
    before: before === null ? null : Buffer.from(before),
    after: after === null ? null : Buffer.from(after),
  }
}

async function guard(
  contents: ChangedContent[],
  unchanged: string[] = [],
  boilerplate = new Map<string, Set<string>>(),
) {
  const manifest = contents
    .filter((content) => content.before)
    .map((content) => ({ path: content.path, size: content.before?.length ?? 0, sha256: '0'.repeat(64) }))
  return guardMemory({ contents, manifest, readUnchangedMemory: async () => unchanged, boilerplate })
}

const terms = (result: Awaited<ReturnType<typeof guard>>) =>
  result.flags.map((flag) => [flag.kind, flag.term])

describe('the loss guard', () => {
  it.each([
    ['a proper noun', '- Sister Ana lives in Braga.\n', '- Sister lives in Braga.\n', [['name', 'Ana']]],
    ['a number', '- Has 3 kids and 2 cats.\n', '- Has kids and 2 cats.\n', [['number', '3']]],
    ['an ISO date', '- Wedding on 2027-06-12 in Porto.\n', '- Wedding in Porto.\n', [['date', '2027-06-12']]],
    [
      'a written date',
      '- Deadline is March 3, 2027 for Atlas.\n',
      '- Deadline soon for Atlas.\n',
      [['date', 'March 3, 2027']],
    ],
    [
      'an acronym at a line start',
      '- AWS account 1234 is the main one.\n',
      '- The main account.\n',
      [
        ['number', '1234'],
        ['name', 'AWS'],
      ],
    ],
  ])('flags a merge that drops %s', async (_what, before, after, expected) => {
    const result = await guard([change(USER, `# User\n\n${before}`, `# User\n\n${after}`)])
    expect(terms(result)).toEqual(expected)
    expect(result.flags[0]).toMatchObject({ path: USER, line: before.trim() })
  })

  it('does not flag words struck through and marked superseded (the offline engine keeps them)', async () => {
    const before =
      '- **City: Lisbon** — I live in Lisbon [[2026-10-01]] <!-- key: user.city; value: Lisbon -->\n'
    const after =
      '- ~~**City: Lisbon** — I live in Lisbon [[2026-10-01]]~~ — superseded 2026-11-20 → Porto <!-- key: user.city; value: Lisbon; superseded: 2026-11-20 -->\n' +
      '- **City: Porto** — I moved to Porto [[2026-11-20]] <!-- key: user.city; value: Porto -->\n'
    const result = await guard([change(USER, before, after)])
    expect(result.flags).toEqual([])
    expect(result.entriesSuperseded).toBe(1)
    expect(result.factsDropped).toBe(0)
  })

  it('does not flag terms moved to another changed file or still present in an unchanged one', async () => {
    const moved = await guard([
      change(USER, '- Account id 998877 at Hetzner.\n', ''),
      change('notes/memory/reference.md', '', '- Hetzner account: 998877.\n'),
    ])
    expect(moved.flags).toEqual([])
    const elsewhere = await guard(
      [change(USER, '- Works with Priya on 2026-12-01.\n', '')],
      ['- Priya: colleague, review on December 1, 2026.\n'],
    )
    expect(elsewhere.flags).toEqual([])
  })

  it('ignores capitalised sentence starts, headings, dream-owned blocks, recent-context.md and template lines', async () => {
    const result = await guard(
      [
        change(
          USER,
          '# Identity\n\nLikes tea. Prefers mornings.\n<!-- dreamlane:begin facts -->\n- Zeta 42\n<!-- dreamlane:end facts -->\n',
          '# User\n',
        ),
        change('notes/memory/recent-context.md', '- Met Quentin on 2026-11-02.\n', '- Quiet days.\n'),
        change(
          'notes/memory/project.md',
          '# Project\n\n> Projects, decisions, deadlines (absolute dates) 2026.\n',
          '# Project\n',
        ),
      ],
      [],
      new Map([
        [
          'notes/memory/project.md',
          boilerplateOf('# Project\n\n> Projects, decisions, deadlines (absolute dates) 2026.\n'),
        ],
      ]),
    )
    expect(result.flags).toEqual([])
  })

  it('measures the net share of memory bytes removed outside owned blocks', async () => {
    const kept = '- one fact that stays\n'
    const gone = '- another fact, lowercase only\n'
    const result = await guard([
      change(USER, kept + gone, kept),
      change('notes/memory/feedback.md', '- short\n', '- short\n- added\n'),
    ])
    const before = Buffer.byteLength(kept + gone) + Buffer.byteLength('- short\n')
    expect(result.memoryBytes).toBe(before)
    expect(result.memoryBytesRemoved).toBe(Buffer.byteLength(gone) - Buffer.byteLength('- added\n'))
    expect(result.removedShare).toBeCloseTo(result.memoryBytesRemoved / before)
    expect(result.factsDropped).toBe(1)
  })

  it('flags a dream whose merge drops a name and a number, in the run record and its summary', async () => {
    const world = await makeLedgerWorld()
    // MEMORY.md already names Ana and Tomás (see world.ts), so only new names can vanish from memory.
    world.write(
      USER,
      '# User\n\n## People\n\n- Brother Inês lives in Guimarães with his 4 kids.\n- Partner Kai.\n',
    )
    const merged = '# User\n\n## People\n\n- Brother lives in Guimarães with his kids; partner Kai.\n'
    const dreamlane = world.open({ provider: writesFiles({ [USER]: merged }) })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    expect(run.lossFlags.map((flag) => [flag.kind, flag.term])).toEqual([
      ['number', '4'],
      ['name', 'Inês'],
    ])
    expect(run.status).toBe('held')
    // "Partner Kai." survives inside the merged line; the brother's bullet does not.
    expect(run.changes).toMatchObject({ files: 3, factsDropped: 1 })
    expect(run.summary).toContain('2 name(s), number(s) or date(s) would vanish from memory: 4, Inês')
    await dreamlane.close()
  })
})
