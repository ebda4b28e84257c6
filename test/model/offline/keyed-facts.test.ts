// Precision first: every keyed fact the offline engine asserts (a `<!-- key: … -->` bullet in a memory file) on
// the sample workspace and on the LoCoMo dev conversations was checked by hand against what was said, and is
// listed in test/fixtures/keyed-facts.json. A fact that is not on the list fails here until someone checks it.
// The list holds keys and values only, never the conversations (they are CC BY-NC and stay in ../shared/eval).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keyedFacts, makeDreamWorld, NOW } from './world.js'

const ROOT = join(import.meta.dirname, '../../..')
const EVAL = join(ROOT, '..', 'shared', 'eval')
const EXPECTED = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/keyed-facts.json'), 'utf8')) as Record<
  string,
  string[]
>
const CONVERSATIONS = ['conv-30', 'conv-41', 'conv-42', 'conv-43', 'conv-44']
const hasEval = existsSync(join(EVAL, 'locomo-dev.json'))

/** Facts not on the list. DREAMLANE_PRINT_FACTS=1 prints them all, to check by hand and add. */
function unexpected(facts: readonly string[], name: string): string[] {
  if (process.env.DREAMLANE_PRINT_FACTS) console.log(JSON.stringify({ [name]: facts }))
  const allowed = new Set(EXPECTED[name] ?? [])
  return facts.filter((fact) => !allowed.has(fact))
}

describe('keyed facts the offline engine asserts are all hand-checked', () => {
  it('on the sample workspace (21 days, every planted fact)', async () => {
    const world = await makeDreamWorld({ days: 21 })
    await world.dream()
    const facts = keyedFacts(world.snapshot())
    expect(facts.length).toBeGreaterThanOrEqual(15)
    expect(unexpected(facts, 'sample')).toEqual([])
  })

  if (!hasEval) {
    it.skip(`on the LoCoMo dev conversations — skipped: ${EVAL} is not there`, () => {})
    console.warn(`keyed-facts: LoCoMo dev conversations skipped (${EVAL} not found)`)
    return
  }

  it.each(CONVERSATIONS)('on LoCoMo %s (one dream over the whole conversation)', async (conv) => {
    const dir = mkdtempSync(join(tmpdir(), 'dreamlane-locomo-'))
    try {
      const db = join(dir, 'messages.db')
      const qa = join(dir, 'qa.json')
      const script = join(EVAL, 'locomo-to-db.mjs')
      const args = ['--in', join(EVAL, 'locomo-dev.json'), '--conv', conv, '--out', db, '--qa', qa]
      execFileSync(
        process.execPath,
        [script, ...args, '--tz', 'UTC', '--rebase-to', NOW.slice(0, 10), '--force'],
        {
          env: { ...process.env, EVAL_DEPS: ROOT },
          stdio: 'ignore',
        },
      )
      const first = (JSON.parse(readFileSync(qa, 'utf8')) as { conversations: { first_message: string }[] })
        .conversations[0]!.first_message
      const days = Math.ceil((Date.parse(NOW) - Date.parse(first)) / 86_400_000) + 2
      const world = await makeDreamWorld({ messagesDb: db, days, timeZone: 'UTC' })
      const result = await world.dream()
      expect(result.stop).toBe('end')
      expect(unexpected(keyedFacts(world.snapshot()), conv)).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
