// bull-board under /fleet on real Redis: the fleet's queue and its jobs, behind the server's token.
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { systemClock } from '../../src/clock.js'
import { openDreamlane } from '../../src/create.js'
import { loadFleetRegistry } from '../../src/fleet/registry.js'
import { readFleetSummary } from '../../src/fleet/summary.js'
import { makeFleetWorld, type FleetWorldWorkspace } from '../helpers/fleet-world.js'
import { createFleetBoard } from '../../src/fleet/board.js'
import { dreamJobFor } from '../../src/fleet/jobs.js'
import { enqueueDream } from '../../src/fleet/producer.js'
import { openDreamQueue } from '../../src/fleet/queue.js'
import { createApp } from '../../src/server/app.js'
import { SKIP_REDIS, useRedisServer } from '../helpers/redis-server.js'
import { startServerWorld } from './world.js'

const TOKEN = 'fleet-secret'

describe.skipIf(SKIP_REDIS)('the fleet board at /fleet', () => {
  const redis = useRedisServer()

  it('shows the dream queue and its jobs to a token holder only', async () => {
    const api = await startServerWorld()
    const queue = await openDreamQueue(redis().url)
    try {
      const job = dreamJobFor({
        workspaceId: 'alice',
        mode: 'manual',
        days: 7,
        now: new Date(),
        timeZone: 'UTC',
      })
      const { jobId } = await enqueueDream(queue, job)
      const app = createApp(api.host, { token: TOKEN, isLoopback: true }, [
        { path: '/fleet', app: createFleetBoard(queue) },
      ])
      const get = (path: string, authed = true) =>
        app.request(`http://127.0.0.1${path}`, {
          headers: { host: '127.0.0.1', ...(authed ? { authorization: `Bearer ${TOKEN}` } : {}) },
        })

      expect((await get('/fleet', false)).status).toBe(401)
      expect((await get('/fleet/api/queues', false)).status).toBe(401)

      const page = await get('/fleet')
      expect(page.status).toBe(200)
      // Its run-time <style> elements are allowed there, and only there; scripts stay same-origin everywhere.
      expect(page.headers.get('content-security-policy')).toMatch(/style-src 'self' 'unsafe-inline'/)
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/)
      expect((await get('/api/status')).headers.get('content-security-policy')).not.toMatch(/unsafe-inline/)
      const html = await page.text()
      expect(html).toMatch(/<base href="\/fleet\/"/)
      const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(html)?.[1]
      expect(script).toBeDefined()
      expect((await get(`/fleet/${script}`)).status).toBe(200)

      const queues = await get('/fleet/api/queues?activeQueue=dreamlane-dreams&status=waiting')
      expect(queues.status).toBe(200)
      const body = (await queues.json()) as {
        queues: {
          name: string
          counts: { waiting: number }
          jobs: { id: string; data: { workspaceId: string } }[]
        }[]
      }
      const [dreams] = body.queues
      expect(dreams?.name).toBe('dreamlane-dreams')
      expect(dreams?.counts.waiting).toBe(1)
      expect(dreams?.jobs.map((j) => [j.id, j.data.workspaceId])).toEqual([[jobId, 'alice']])
    } finally {
      await queue.close()
    }
  })

  it('adds a fleet section to the Dreams page: each workspace with its last dream, backlog and failed jobs', async () => {
    const world = await makeFleetWorld(2, redis().url)
    const registry = loadFleetRegistry(world.file, {})
    const [dreamt] = world.workspaces as [FleetWorldWorkspace]
    const local = openDreamlane({ config: dreamt.config, logger: pino({ level: 'silent' }) })
    const run = await local.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await local.close()
    const api = await startServerWorld()
    const queue = await openDreamQueue(redis().url)
    try {
      api.host.fleet = { summary: () => readFleetSummary(registry, queue, systemClock) }
      const page = await (await api.fetch('/dreams')).text()
      const rows = [...page.matchAll(/<tr data-workspace="([^"]+)">([\s\S]*?)<\/tr>/g)].map((m) => [
        m[1],
        (m[2] ?? '')
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      ])
      expect(rows).toEqual([
        [
          'ws-00',
          expect.stringMatching(new RegExp(`^ws-00 UTC ${run.status} \\(manual\\) \\S+ \\S+ UTC 0 0$`)),
        ],
        ['ws-01', 'ws-01 UTC — — 0 0'],
      ])
      const fleetText = (/<section aria-labelledby="fleet-title"[\s\S]*?<\/p>/.exec(page)?.[0] ?? '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
      expect(fleetText).toMatch(/2 workspace\(s\); queue: 0 waiting, 0 active, 0 delayed, 0 failed/)
    } finally {
      await queue.close()
    }
  })
})
