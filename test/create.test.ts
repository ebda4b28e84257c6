import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createScriptedProvider } from '../src/model/scripted.js'
import { fakeTimers } from './helpers/fake-timers.js'
import { makeDreamWorld, NOW } from './helpers/dream-world.js'

describe('openDreamlane: bootstrap, retry, AutoDream, /dreaming', () => {
  it('bootstraps once when core memory files are missing, and the bootstrap dream fills them', async () => {
    const world = await makeDreamWorld()
    rmSync(join(world.paths.memory, 'MEMORY.md'))
    rmSync(join(world.paths.memory, 'recent-context.md'))
    const dreamlane = world.open()
    const boot = await dreamlane.bootstrap()
    expect(boot?.run.mode).toBe('bootstrap')
    const run = await boot!.done
    expect(run.status).toBe('succeeded')
    expect(existsSync(join(world.paths.memory, 'MEMORY.md'))).toBe(true)
    expect(await dreamlane.bootstrap()).toBeNull()
    expect(dreamlane.runs.list().filter((r) => r.mode === 'bootstrap')).toHaveLength(1)
    await dreamlane.close()
  })

  it("retries a run with that run's mode, chat and window, even days later", async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open({ provider: createScriptedProvider([{ fail: 'overloaded' }]) })
    const first = await dreamlane.dream({ mode: 'auto', chatJid: 'web:main', days: 2 })
    expect(first.status).toBe('degraded')
    world.clock.set('2026-11-24T09:00:00.000Z')
    const again = await dreamlane.retry(first.id).done
    expect(again).toMatchObject({
      mode: 'auto',
      chatJid: 'web:main',
      days: 2,
      firstDay: first.firstDay,
      lastDay: first.lastDay,
      retryOf: first.id,
      attempt: 2,
    })
    await dreamlane.close()
  })

  it('retries a degraded auto run after 5 minutes, then 10, and stops after the configured delays', async () => {
    const world = await makeDreamWorld()
    const { clock, timers, advanceTo, pendingCount } = fakeTimers(NOW)
    const config = { ...world.config, autoDream: { ...world.config.autoDream, retryDelaysMinutes: [5, 10] } }
    const dreamlane = world.open({
      config,
      clock,
      timers,
      provider: createScriptedProvider([{ fail: 'overloaded' }]),
    })
    const first = await dreamlane.dream({ mode: 'auto', chatJid: 'web:main', days: 2 })
    expect(first.status).toBe('degraded')
    expect(pendingCount()).toBe(1)
    await advanceTo('2026-11-21T20:04:59.000Z')
    expect(dreamlane.runs.list()).toHaveLength(1)
    await advanceTo('2026-11-21T20:05:00.000Z')
    await dreamlane.lanes.onIdle()
    const attempts = () => dreamlane.runs.list().map((r) => r.attempt)
    expect(attempts()).toEqual([2, 1])
    await advanceTo('2026-11-21T20:15:00.000Z')
    await dreamlane.lanes.onIdle()
    expect(attempts()).toEqual([3, 2, 1])
    await advanceTo('2026-11-22T20:00:00.000Z')
    await dreamlane.lanes.onIdle()
    expect(attempts()).toEqual([3, 2, 1])
    await dreamlane.close()
  })

  it('/dreaming off persists across restarts and makes AutoDream skip as disabled', async () => {
    const world = await makeDreamWorld()
    const dreamlane = world.open()
    expect(await dreamlane.handleChatInput('web:main', '/dreaming off')).toMatch(/^AutoDream is off/)
    await dreamlane.close()
    const reopened = world.open()
    expect(await reopened.handleChatInput('web:main', '/dreaming')).toMatch(
      /AutoDream is off[\s\S]*If it ran now: disabled[\s\S]*Recall: \d+ short-term/,
    )
    const run = await reopened.dream({ mode: 'auto', chatJid: 'web:main', days: 2 })
    expect(run).toMatchObject({ status: 'skipped', gate: 'disabled' })
    expect(await reopened.handleChatInput('web:main', '/dreaming on')).toMatch(
      /^AutoDream is on .*\nNext run: 2026-11-22 01:00 UTC/,
    )
    expect(await reopened.handleChatInput('web:main', '/dreaming sometimes')).toMatch(
      /^Usage: \/dreaming on\|off\|core\|deep\|rem\|status/,
    )
    await reopened.close()
  })

  it('a review action asked for while the dream is still finishing waits for it instead of failing on the lock', async () => {
    const world = await makeDreamWorld()
    const memory = join(world.paths.memory, 'MEMORY.md')
    const original =
      '# Memory\n\n- Maya Ortega works at Tidewell in Porto since 2019.\n- Atlas launches 2026-12-17 with 40 customers.\n'
    writeFileSync(memory, original)
    const dreamlane = world.open({
      provider: createScriptedProvider([
        { tool: 'write_file', input: { path: 'notes/memory/MEMORY.md', content: '# Memory\n' } },
        { text: 'Tidied.' },
      ]),
    })
    const { run, done } = dreamlane.trigger({ mode: 'manual', chatJid: 'web:main', days: 2 })
    const applied = await dreamlane.apply(run.id)
    expect((await done).status).toBe('held')
    expect(applied.run.id).toBe(run.id)
    expect(readFileSync(memory, 'utf8')).toBe('# Memory\n')
    await dreamlane.close()
  })

  it('fires AutoDream from the schedule and the gate lets the first one through', async () => {
    const world = await makeDreamWorld()
    const { clock, timers, advanceTo } = fakeTimers(NOW)
    const dreamlane = world.open({ clock, timers })
    dreamlane.startAutoDream()
    expect((await dreamlane.status()).autoDream.nextRunAt).toBe('2026-11-22T01:00:00.000Z')
    await advanceTo('2026-11-22T01:00:00.000Z')
    await dreamlane.lanes.onIdle()
    const [run] = dreamlane.runs.list()
    expect(run).toMatchObject({ mode: 'auto', status: 'succeeded', gate: 'triggered', days: 2 })
    await dreamlane.shutdown()
  })
})
