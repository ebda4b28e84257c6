// POST /api/promotions: a preview that writes nothing, and "Promote now" as a deep sweep run on the dream lane.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { recordRecall } from '../../src/recall/events.js'
import { startServerWorld, waitFor } from './world.js'

const PEOPLE = "# People\n\n- Maya is Alex's sister and lives in Porto\n"

async function recalledWorld() {
  const api = await startServerWorld()
  const { world } = api
  writeFileSync(join(world.dir, 'notes/people.md'), PEOPLE)
  for (const [day, query] of [
    ['2026-11-18', 'where does maya live'],
    ['2026-11-19', 'alex sister'],
    ['2026-11-20', 'maya porto'],
  ] as const) {
    recordRecall(api.host.dreamlane.state, {
      query,
      hits: [{ path: 'notes/people.md', line: 3, snippet: '', score: 4 }],
      chatJid: 'web:main',
      at: new Date(`${day}T10:00:00.000Z`),
      workspace: world.dir,
    })
  }
  const memory = () => readFileSync(join(world.paths.memory, 'MEMORY.md'), 'utf8')
  return { api, memory }
}

describe('promotions API', () => {
  it('previews what a deep sweep would promote, writing nothing and recording no run', async () => {
    const { api, memory } = await recalledWorld()
    const before = memory()
    const preview = await api.json<{ preset: string; selected: { path: string; score: number }[] }>(
      '/api/promotions',
      { json: { preview: true } },
    )
    expect(preview.status).toBe(200)
    expect(preview.body.preset).toBe('core')
    expect(preview.body.selected.map((s) => s.path)).toEqual(['notes/people.md'])
    expect(memory()).toBe(before)
    expect(api.host.dreamlane.listRuns()).toEqual([])
  })

  it('"Promote now" runs a deep sweep: 202 with its run, then MEMORY.md holds the dated, scored entry', async () => {
    const { api, memory } = await recalledWorld()
    const started = await api.json<{ runId: string }>('/api/promotions', { json: {} })
    expect(started.status).toBe(202)
    const run = await waitFor(() => {
      const record = api.host.dreamlane.getRun(started.body.runId)
      return record.finishedAt ? record : undefined
    }, 'the sweep to finish')
    expect(run).toMatchObject({
      mode: 'deep',
      status: 'succeeded',
      changedFiles: [expect.stringMatching(/MEMORY\.md$/)],
    })
    expect(memory()).toMatch(
      /- Maya is Alex's sister and lives in Porto — .* \(2026-11-21, score 0\.\d\d\) <!-- recall:/,
    )
  })

  it('refuses unknown keys with 400, and the dashboard form redirects to the sweep run', async () => {
    const { api } = await recalledWorld()
    expect((await api.json('/api/promotions', { json: { apply: true } })).status).toBe(400)
    const page = await (await api.fetch('/dreams')).text()
    expect(page).toContain('action="/promotions"')
    expect(page).toContain('Promote now')
    const posted = await api.fetch('/promotions', { method: 'POST', redirect: 'manual' })
    expect(posted.status).toBe(303)
    expect(posted.headers.get('location')).toMatch(/^\/dreams\/run-.*\?notice=queued$/)
  })
})
