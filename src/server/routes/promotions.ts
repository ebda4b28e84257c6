// /api/promotions: preview what a deep sweep would promote now, or start one ("Promote now"); the page's form.
import type { Hono } from 'hono'
import { z } from 'zod'
import type { ServerHost } from '../host.js'
import { summarizeRun } from '../run-view.js'
import { readJson } from '../validate.js'
import { DASHBOARD_CHAT } from './dreams.js'

const promoteBody = z.strictObject({ preview: z.boolean().optional() })
/** Candidates shown in a preview: the best ones, with every gate counted. */
const PREVIEW_CANDIDATES = 20

export function registerPromotionRoutes(app: Hono, host: ServerHost): void {
  const { dreamlane } = host

  /** A deep sweep a person asked for: on the dream lane, with a run record, ledger and diary line; only the lock gates it. */
  const promoteNow = () =>
    dreamlane.trigger({ mode: 'deep', chatJid: DASHBOARD_CHAT, days: 1, requested: true })

  app.post('/api/promotions', async (c) => {
    const body = await readJson(c, promoteBody)
    if (body.preview) {
      const status = await dreamlane.status()
      const preset = status.sweeps.mode === 'off' ? 'core' : status.sweeps.mode
      const { plan } = await dreamlane.promote({ preset })
      return c.json({
        preview: true,
        preset,
        selected: plan.selected.map((candidate) => ({
          chunkKey: candidate.chunkKey,
          path: candidate.path,
          excerpt: candidate.excerpt,
          score: candidate.score,
        })),
        candidates: plan.candidates.slice(0, PREVIEW_CANDIDATES).map((candidate) => ({
          path: candidate.path,
          excerpt: candidate.excerpt,
          score: candidate.score,
          gate: candidate.gate,
        })),
        gates: plan.gates,
      })
    }
    const result = promoteNow()
    const run = summarizeRun(result.run, dreamlane.paths.workspace)
    return c.json({ accepted: true, coalesced: result.coalesced, runId: run.id, run }, 202)
  })

  app.post('/promotions', (c) => {
    const result = promoteNow()
    const notice = result.coalesced ? 'joined' : 'queued'
    return c.redirect(`/dreams/${encodeURIComponent(result.run.id)}?notice=${notice}`, 303)
  })
}
