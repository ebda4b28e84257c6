// `dreamlane fleet` and `dreamlane worker` from the command line: the registry check and clear errors.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDreamQueue } from '../../src/fleet/queue.js'
import { runCli } from '../helpers/cli.js'
import { SKIP_REDIS, useRedisServer } from '../helpers/redis-server.js'
import { makeTempDir } from '../helpers/workspace.js'

describe('dreamlane fleet (no Redis needed)', () => {
  it('lists the workspaces of a registry, each with its zone and schedule', async () => {
    const dir = makeTempDir()
    for (const name of ['alice', 'bob'])
      expect((await runCli(['-w', join(dir, 'ws', name), 'init'])).code).toBe(0)
    writeFileSync(join(dir, 'ws', 'bob', '.dreamlane', 'config.json'), '{"timezone":"Asia/Tokyo"}')
    writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ globs: ['ws/*'] }))
    const result = await runCli(['fleet', 'list', '--json'], { cwd: dir })
    expect(result.code).toBe(0)
    const listed = JSON.parse(result.stdout) as { workspaces: { id: string; timezone: string }[] }
    expect(listed.workspaces.map((w) => [w.id, w.timezone])).toEqual([
      ['alice', 'UTC'],
      ['bob', 'Asia/Tokyo'],
    ])
  })

  it('names every bad entry of the registry and exits with the config code', async () => {
    const dir = makeTempDir()
    writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ workspaces: [{ workspace: 'gone' }] }))
    const result = await runCli(['fleet', 'list'], { cwd: dir })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/workspaces\.0: workspace directory .*gone does not exist/)
  })

  it('says Redis is not reachable, where it looked and how to start it (exit 9)', async () => {
    const dir = makeTempDir()
    expect((await runCli(['-w', join(dir, 'ws'), 'init'])).code).toBe(0)
    writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ workspaces: [{ workspace: 'ws' }] }))
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const result = await runCli(['fleet', 'tick', '--redis', 'redis://127.0.0.1:1'], { cwd: dir })
    expect(result.code).toBe(9)
    expect(result.stderr).toMatch(/could not reach Redis at redis:\/\/127\.0\.0\.1:1.*redis-server/)
  })
})

describe.skipIf(SKIP_REDIS)('dreamlane fleet trigger (real Redis)', () => {
  const redis = useRedisServer()

  it('caps --days at the workspace’s dream.maxDays and says so, as `dream` and `seed` do', async () => {
    const dir = makeTempDir()
    expect((await runCli(['-w', join(dir, 'ws'), 'init'])).code).toBe(0)
    writeFileSync(join(dir, 'ws', '.dreamlane', 'config.json'), '{"dream": {"maxDays": 30}}')
    writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ workspaces: [{ workspace: 'ws' }] }))
    const result = await runCli(['fleet', 'trigger', 'ws', '--days', '99999', '--redis', redis().url], {
      cwd: dir,
    })
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/--days 99999 is more than dream\.maxDays \(30\); using the last 30 days/)
    const queue = await openDreamQueue(redis().url)
    try {
      const [job] = await queue.getJobs(['waiting', 'delayed'])
      expect(job?.data).toMatchObject({ workspaceId: 'ws', mode: 'manual', days: 30 })
    } finally {
      await queue.close()
    }
  })
})
