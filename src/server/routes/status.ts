// /api/status and /api/backups: engine, AutoDream, next run, backlog, memory counts; backups and their restore.
import type { Hono } from 'hono'
import { listBackups } from '../../backup/list.js'
import type { Dreamlane } from '../../create.js'
import type { ServerHost } from '../host.js'
import { countMemory } from '../memory-files.js'
import { summarizeRun } from '../run-view.js'
import { idSchema, parseInput } from '../validate.js'

/** Everything the Dreams page and /api/status show: engine, AutoDream, backlog, recall counts, note counts, backups. */
export async function readStatus(dreamlane: Dreamlane) {
  // Together, not one after another: each file read waits for a turn of a loop a dream may keep busy.
  const [status, backups, notes] = await Promise.all([
    dreamlane.status(),
    listBackups(dreamlane.paths),
    countMemory(dreamlane.paths),
  ])
  return {
    ...status,
    latestRun: status.latestRun ? summarizeRun(status.latestRun, dreamlane.paths.workspace) : null,
    // `memory` is recall (dreamlane.status()); these are the note files themselves.
    notes,
    backups: { count: backups.length, newest: backups[0]?.id ?? null },
  }
}

export type StatusView = Awaited<ReturnType<typeof readStatus>>

export function registerStatusRoutes(app: Hono, host: ServerHost): void {
  const { dreamlane } = host

  app.get('/api/status', async (c) => c.json(await readStatus(dreamlane)))

  app.get('/api/backups', async (c) => c.json({ backups: await listBackups(dreamlane.paths) }))

  app.post('/api/backups/:id/restore', async (c) => {
    const id = parseInput(idSchema, c.req.param('id'), 'backup id')
    const result = await dreamlane.restore(id)
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
