// MEMORY.md's file pointers: live facts counted, and the fact files in order of their most important fact.
import { describe, expect, it } from 'vitest'
import { DEFAULTS } from '../../../src/config/defaults.js'
import { filePointers, type IndexSources } from '../../../src/model/offline/index-input.js'
import { weightsOf } from '../../../src/model/offline/daily-summary.js'

const USER_MD = [
  '# User',
  '',
  '## Identity',
  '',
  '- **Name: Maya** — I am Maya [[2026-01-05]] <!-- key: user.name; value: Maya -->',
  '',
  '## Archive',
  '',
  '### Identity',
  '',
  '- **City: Porto** — I live in Porto [[2025-06-01]] <!-- key: user.city; value: Porto -->',
  '',
].join('\n')
const PROJECT_MD =
  '# Projects\n\n## Decisions\n\n- Postgres for Atlas [[2026-03-01]] <!-- key: decision.atlas-db; seen: 2026-02-01..2026-03-01 x3 -->\n'
const FEEDBACK_MD =
  '# Feedback\n\n## How to answer\n\n- Short answers [[2026-02-20]] <!-- key: feedback.short -->\n'

async function sourcesOn(today: string): Promise<IndexSources> {
  return {
    texts: new Map([
      ['user.md', USER_MD],
      ['project.md', PROJECT_MD],
      ['feedback.md', FEEDBACK_MD],
      ['reference.md', '# Reference\n'],
    ]),
    days: [today],
    messagesByDay: new Map(),
    factsByDay: new Map(),
    dayPages: new Set(),
    weights: await weightsOf([]),
    today,
    freshness: DEFAULTS.memory.freshness,
  }
}

describe('MEMORY.md file pointers', () => {
  it('counts live facts only and leaves archived values out of the description', async () => {
    const user = filePointers(await sourcesOn('2026-01-10')).find((pointer) => pointer.name === 'user.md')
    expect(user?.description).toBe('who the user is: Maya (1 fact)')
  })

  it('puts the fact file with the most important live fact first', async () => {
    // 2026-01-10: every live fact is 0.5 or (project, said on 3 days) 0.7 → project first, the rest as before.
    const early = filePointers(await sourcesOn('2026-01-10')).map((pointer) => pointer.name)
    expect(early).toEqual([
      'project.md',
      'user.md',
      'feedback.md',
      'reference.md',
      'current-state.md',
      'recent-context.md',
    ])
    // 2026-05-01: Maya 116 days → 0.5 × 0.5^(86/45) = 0.1329; Postgres 61 days → 0.7 × 0.5^(31/45) = 0.4342;
    // short answers 70 days → 0.5 × 0.5^(40/45) = 0.2701.
    const later = filePointers(await sourcesOn('2026-05-01')).map((pointer) => pointer.name)
    expect(later.slice(0, 4)).toEqual(['project.md', 'feedback.md', 'user.md', 'reference.md'])
  })
})
