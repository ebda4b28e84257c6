// Promotion reads keyed facts alike, whoever wrote them: a model's bullet keyed by the fact-keys pass and an
// offline engine's bullet are recalled, scored and promoted into MEMORY.md the same way, comments left behind.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keyFactFile } from '../../src/notes/fact-keys.js'
import { promoteMemory } from '../../src/recall/promote.js'
import { NOTES, makeRecallWorld } from './world.js'

const OFFLINE_LINE =
  '- **Sister: Maya** — my sister Maya visits in spring [[2026-10-01]] <!-- key: user.relation.sister.maya; value: Maya -->'
const MODEL_TEXT = '# User\n\n## Identity\n\n- **City: Porto** — moved to Porto in October [[2026-10-03]]\n'

describe('promotion of keyed facts', () => {
  it('promotes a model’s keyed fact as it promotes an offline one', async () => {
    const keyed = keyFactFile(MODEL_TEXT, 'user.md', '2026-10-04').text
    expect(keyed).toContain('<!-- key: user.city; value: Porto; seen: 2026-10-03..2026-10-03 x1 -->')
    const world = makeRecallWorld({
      ...NOTES,
      'notes/memory/user.md': `${keyed}${OFFLINE_LINE}\n`,
    })
    const plan: [string, string[]][] = [
      ['2026-11-10', ['Porto', 'Maya']],
      ['2026-11-11', ['moved to Porto', 'sister Maya']],
      ['2026-11-13', ['Porto October', 'Maya spring']],
      ['2026-11-15', ['city Porto', 'Maya visits']],
    ]
    for (const [day, queries] of plan) {
      world.clock.set(`${day}T10:00:00Z`)
      for (const query of queries) await world.search(query)
    }
    world.clock.set('2026-11-16T08:00:00Z')
    const deps = { state: world.state, paths: world.paths, config: world.config, clock: world.clock }
    const { plan: promoted } = await promoteMemory(deps, { apply: true })
    const selected = promoted.selected.map((candidate) => [candidate.path, candidate.excerpt])
    expect(selected).toEqual(
      expect.arrayContaining([
        ['notes/memory/user.md', expect.stringContaining('**City: Porto**')],
        ['notes/memory/user.md', expect.stringContaining('**Sister: Maya**')],
      ]),
    )
    const memory = readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8')
    expect(memory).toMatch(/- \*\*City: Porto\*\* — moved to Porto in October .*<!-- recall:[0-9a-f]{12} -->/)
    expect(memory).toMatch(/- \*\*Sister: Maya\*\* — my sister Maya visits .*<!-- recall:[0-9a-f]{12} -->/)
    expect(memory).not.toContain('key:')
  })
})
