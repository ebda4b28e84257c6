// /api/status and /api/backups: engine, AutoDream, next run, backlog, memory counts; backups and their restore.
import type { Hono } from 'hono'
import { listBackups } from '../../backup/list.js'
import type { Dreamlane } from '../../create.js'
import { restoreUnderLock } from '../dream-actions.js'
import type { ServerHost } from '../host.js'
import { countMemory } from '../memory-files.js'
import { summarizeRun } from '../run-view.js'
import { idSchema, parseInput } from '../validate.js'

/** Everything the Dreams page and /api/status show: engine, AutoDream, backlog, recall counts, note counts, backups. */
export async function readStatus(lane: Dreamlane) {
  const status = await lane.status()
  const backups = await listBackups(lane.paths)
  return {
    ...status,
    latestRun: status.latestRun ? summarizeRun(status.latestRun, lane.paths.workspace) : null,
    // `memory` is recall (lane.status()); these are the note files themselves.
    notes: await countMemory(lane.paths),
    backups: { count: backups.length, newest: backups[0]?.id ?? null },
  }
}

export type StatusView = Awaited<ReturnType<typeof readStatus>>

export function registerStatusRoutes(app: Hono, host: ServerHost): void {
  const { lane } = host

  app.get('/api/status', async (c) => c.json(await readStatus(lane)))

  app.get('/api/backups', async (c) => c.json({ backups: await listBackups(lane.paths) }))

  app.post('/api/backups/:id/restore', async (c) => {
    const id = parseInput(idSchema, c.req.param('id'), 'backup id')
    const result = await restoreUnderLock(lane, id, host.clock)
    const body = {
      backupId: id,
      restored: result.restored,
      unchanged: result.unchanged,
      removed: result.removed,
      safetyBackup: result.safetyBackup.id,
    }
    host.hub.publish('restored', body)
    return c.json(body)
  })
}
