// /api/dreams: list runs, trigger one through the gate, read one with its diff, retry one, follow one's progress.
import type { Hono } from 'hono'
import { z } from 'zod'
import type { RunStatus } from '../../dream/types.js'
import { FINISHED_STATUSES } from '../../dream/types.js'
import type { ServerHost } from '../host.js'
import { diffRun } from '../run-diff.js'
import { detailRun, summarizeRun } from '../run-view.js'
import { lastEventId, streamHub } from '../sse.js'
import { idSchema, jidSchema, parseInput, readJson } from '../validate.js'

const STATUSES: readonly string[] = ['queued', 'running', ...FINISHED_STATUSES]

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  status: z
    .string()
    .optional()
    .transform((raw) => (raw ? raw.split(',') : []))
    .refine(
      (list) => list.every((status) => STATUSES.includes(status)),
      `status must be a comma-separated list of: ${STATUSES.join(', ')}`,
    ),
})

/** Where a dream started from the dashboard posts its summary when no chat is named. */
export const DASHBOARD_CHAT = 'web:main'

export function registerDreamRoutes(app: Hono, host: ServerHost): void {
  const { dreamlane } = host
  const workspace = dreamlane.paths.workspace
  const triggerBody = z.strictObject({
    days: z.number().int().min(1).max(dreamlane.config.dream.maxDays).optional(),
    chatJid: jidSchema.optional(),
    mode: z.enum(['manual', 'auto']).optional(),
  })

  app.get('/api/dreams', (c) => {
    const query = parseInput(listQuery, c.req.query(), 'query')
    const runs = dreamlane.listRuns({ limit: query.limit ?? 50, status: query.status as RunStatus[] })
    return c.json({ runs: runs.map((run) => summarizeRun(run, workspace)) })
  })

  app.post('/api/dreams', async (c) => {
    const body = await readJson(c, triggerBody)
    const outcome = await dreamlane.triggerThroughGate({
      mode: body.mode ?? 'manual',
      chatJid: body.chatJid ?? DASHBOARD_CHAT,
      days: body.days ?? dreamlane.config.dream.defaultDays,
    })
    const run = outcome.run ? summarizeRun(outcome.run, workspace) : null
    const payload = {
      accepted: outcome.accepted,
      gate: outcome.gate,
      reason: outcome.reason,
      coalesced: outcome.coalesced,
      runId: run?.id ?? null,
      run,
    }
    return c.json(payload, outcome.accepted ? 202 : 200)
  })

  app.get('/api/dreams/:id', async (c) => {
    const run = dreamlane.getRun(parseInput(idSchema, c.req.param('id'), 'run id'))
    return c.json({
      run: detailRun(run, workspace),
      diff: await diffRun(
        dreamlane.paths,
        run,
        dreamlane.changes(run.id),
        dreamlane.config.privacy.keepSecretKinds,
      ),
    })
  })

  app.post('/api/dreams/:id/retry', (c) => {
    const original = dreamlane.getRun(parseInput(idSchema, c.req.param('id'), 'run id'))
    const result = dreamlane.retry(original.id)
    return c.json(
      {
        retryOf: original.id,
        coalesced: result.coalesced,
        runId: result.run.id,
        run: summarizeRun(result.run, workspace),
      },
      202,
    )
  })

  // Review and undo (the change ledger): a held run is applied or discarded; a kept run can be undone.
  const undoBody = z.strictObject({ force: z.boolean().optional() })
  app.post('/api/dreams/:id/apply', async (c) => {
    const result = await dreamlane.apply(parseInput(idSchema, c.req.param('id'), 'run id'))
    return c.json({ result })
  })
  app.post('/api/dreams/:id/discard', async (c) => {
    const result = await dreamlane.discard(parseInput(idSchema, c.req.param('id'), 'run id'))
    return c.json({ result })
  })
  app.post('/api/dreams/:id/undo', async (c) => {
    const id = parseInput(idSchema, c.req.param('id'), 'run id')
    const body = c.req.header('content-type')?.includes('json') ? await readJson(c, undoBody) : {}
    const result = await dreamlane.undo(id, { force: body.force ?? false })
    return c.json({ result })
  })

  app.get('/api/dreams/:id/events', (c) => {
    const run = dreamlane.getRun(parseInput(idSchema, c.req.param('id'), 'run id'))
    return streamHub(c, host.hub, {
      afterId: lastEventId(c),
      filter: (event) => event.runId === run.id,
      endAfter: (event) => event.name === 'finished',
      // Progress of a run that finished before the server's memory of events: its final record.
      fallback: () => {
        const now = dreamlane.getRun(run.id)
        return FINISHED_STATUSES.includes(now.status)
          ? { name: 'finished', data: { run: summarizeRun(now, workspace) } }
          : null
      },
    })
  })

  // Live from now unless the client says where it left off (Last-Event-ID on reconnect, or ?after=).
  app.get('/api/events', (c) => streamHub(c, host.hub, { afterId: lastEventId(c) || host.hub.lastId }))
}
