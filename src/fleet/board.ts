// bull-board for the fleet's queue, as a hono app `serve` mounts under /fleet (behind its token and checks).
import { createBullBoard } from '@bull-board/api'
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter'
import { HonoAdapter } from '@bull-board/hono'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Queue } from 'bullmq'
import { Hono } from 'hono'

/** Where `serve --fleet` mounts the board. */
export const FLEET_BOARD_PATH = '/fleet'

/** The board's routes (UI, its API and static files) for `queue`, expecting to be mounted at `basePath`. */
export function createFleetBoard(queue: Queue, basePath = FLEET_BOARD_PATH): Hono {
  const adapter = new HonoAdapter(serveStatic).setBasePath(basePath)
  createBullBoard({
    queues: [
      new BullMQAdapter(queue, {
        readOnlyMode: false,
        description: 'dream jobs, one per workspace and window',
      }),
    ],
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'dreamlane fleet' } },
  })
  const board = new Hono()
  board.use('*', async (c, next) => {
    await next()
    // bull-board's UI injects <style> elements at run time; its scripts still come only from this server.
    c.header(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'",
    )
  })
  board.route('/', adapter.registerPlugin())
  return board
}
