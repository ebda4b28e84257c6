// `dreamlane memory promote|status` through the real CLI on a workspace whose state.db holds recall events.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStateDb } from '../../src/db/state.js'
import { recordRecall } from '../../src/recall/events.js'
import { runCli } from '../helpers/cli.js'
import { makeWorkspace } from '../helpers/workspace.js'

const DAY_MS = 86_400_000

/** Maya's line recalled on three days with three queries; the kite shop once. Times relative to now: the CLI's clock is real. */
function recalledWorkspace() {
  const ws = makeWorkspace({
    'notes/people.md': "# People\n\n- Maya is Alex's sister and lives in Porto\n- Sam runs the kite shop\n",
    'notes/memory/MEMORY.md': '# Memory\n',
  })
  const state = openStateDb(ws.paths.stateDb)
  const now = Date.now()
  const record = (daysAgo: number, query: string, line: number) =>
    recordRecall(state, {
      query,
      hits: [{ path: 'notes/people.md', line, snippet: '', score: 4 }],
      chatJid: 'alex@chat',
      at: new Date(now - daysAgo * DAY_MS),
      workspace: ws.paths.workspace,
    })
  record(5, 'porto', 3)
  record(3, 'maya sister', 3)
  record(1, 'where does maya live', 3)
  record(1, 'kite', 4)
  state.close()
  return { ws, args: ['--workspace', ws.dir] }
}

describe('dreamlane memory', () => {
  it('previews candidates with signals and gates, then --apply writes once', async () => {
    const { ws, args } = recalledWorkspace()
    const memory = join(ws.paths.memory, 'MEMORY.md')

    const preview = await runCli([...args, '--json', 'memory', 'promote'])
    expect(preview.code, preview.stderr).toBe(0)
    const plan = JSON.parse(preview.stdout)
    expect(plan.applied).toBeNull()
    expect(
      plan.plan.candidates.map((c: { startLine: number; gate: string }) => [c.startLine, c.gate]),
    ).toEqual([
      [3, 'pass'],
      [4, 'min-recalls'],
    ])
    expect(Object.keys(plan.plan.candidates[0].signals).sort()).toEqual([
      'consolidation',
      'diversity',
      'frequency',
      'recency',
      'relevance',
      'richness',
    ])
    expect(readFileSync(memory, 'utf8')).toBe('# Memory\n')

    const text = await runCli([...args, 'memory', 'promote', '--apply'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toMatch(/pass → promote\s+notes\/people\.md:3/)
    expect(text.stdout).toMatch(/stopped: min-recalls\s+notes\/people\.md:4/)
    expect(text.stdout).toMatch(/promoted 1 into notes\/memory\/MEMORY\.md/)
    const after = readFileSync(memory, 'utf8')
    expect(after).toContain("Maya is Alex's sister and lives in Porto")

    const again = await runCli([...args, '--json', 'memory', 'promote', '--apply', '--include-promoted'])
    expect(JSON.parse(again.stdout).applied.written).toEqual([])
    expect(JSON.parse(again.stdout).plan.candidates[0].gate).toBe('promoted')
    expect(readFileSync(memory, 'utf8')).toBe(after)

    const status = await runCli([...args, '--json', 'memory', 'status'])
    expect(JSON.parse(status.stdout)).toMatchObject({ shortTerm: 1, ready: 0, promoted: 1, events: 4 })
    const line = await runCli([...args, 'memory', 'status'])
    expect(line.stdout).toMatch(
      /^Recall: 1 short-term \(0 ready, core\), 1 promoted \(last .+\), 4 events stored\.$/m,
    )
  })

  it('takes --preset and refuses an unknown one with usage exit 2', async () => {
    const { args } = recalledWorkspace()
    const rem = await runCli([...args, '--json', 'memory', 'promote', '--preset', 'rem'])
    expect(JSON.parse(rem.stdout).plan.policy).toMatchObject({ preset: 'rem', minRecallCount: 4 })
    expect(JSON.parse(rem.stdout).plan.candidates[0].gate).toBe('min-recalls')
    const bad = await runCli([...args, 'memory', 'promote', '--preset', 'nightly'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--preset expects one of core, deep, rem, light/)
  })
})
