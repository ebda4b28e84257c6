import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PostedSummary } from '../../src/dream/types.js'
import { createScriptedProvider } from '../../src/model/scripted.js'
import { fakeTimers } from '../helpers/fake-timers.js'
import { makeDreamWorld, NOW } from '../helpers/dream-world.js'
import type { MessageSpec } from '../helpers/workspace.js'
import { makeMessagesDb } from '../helpers/workspace.js'

const MAIN = 'whatsapp:+15550100@s.whatsapp.net'
const TRIP = 'web:madeira'
const FORK = 'web:madeira/fork-2'

/** A busy main chat, a trip chat and a fork of it that is the most recently touched chat of all. */
function historyWithFork(): { messages: MessageSpec[] } {
  const at = (hoursAgo: number) => new Date(new Date(NOW).getTime() - hoursAgo * 3_600_000).toISOString()
  const messages: MessageSpec[] = [
    ...[30, 29, 28, 27, 6, 5].map((h) => ({ chatJid: MAIN, content: `main chat ${h}`, timestamp: at(h) })),
    { chatJid: TRIP, content: 'Madeira in May?', timestamp: at(4) },
    { chatJid: FORK, content: 'Madeira in May, regenerated', timestamp: at(1) },
    { chatJid: FORK, content: 'Levada walks', timestamp: at(0.5) },
  ]
  return { messages }
}

async function forkedWorld() {
  const world = await makeDreamWorld([])
  rmSync(world.paths.messagesDb)
  makeMessagesDb(world.paths, historyWithFork().messages, [
    { branchId: 'b2', chatJid: FORK, rootChatJid: TRIP },
  ]).close()
  return world
}

describe('scheduled and bootstrap dreams report to the main chat', () => {
  it('bootstrap picks the busiest root chat, not the branch touched last', async () => {
    const world = await forkedWorld()
    rmSync(join(world.paths.memory, 'MEMORY.md'))
    const posted: PostedSummary[] = []
    const dreamlane = world.open({ onSummary: (summary) => void posted.push(summary) })
    expect(dreamlane.messages.listChats()[0]?.jid).toBe(FORK)
    const boot = await dreamlane.bootstrap()
    expect(boot?.run.chatJid).toBe(MAIN)
    await boot!.done
    expect(posted.map((p) => p.chatJid)).toEqual([MAIN])
    await dreamlane.close()
  })

  it('AutoDream from the schedule reports to the main chat too', async () => {
    const world = await forkedWorld()
    const { clock, timers, advanceTo } = fakeTimers(NOW)
    const dreamlane = world.open({ clock, timers })
    dreamlane.startAutoDream()
    await advanceTo('2026-11-22T01:00:00.000Z')
    await dreamlane.lanes.onIdle()
    expect(dreamlane.runs.list()[0]).toMatchObject({ mode: 'auto', chatJid: MAIN })
    await dreamlane.shutdown()
  })

  it('an empty messages DB still gives a target', async () => {
    const world = await makeDreamWorld([])
    const dreamlane = world.open()
    rmSync(join(world.paths.memory, 'MEMORY.md'))
    const boot = await dreamlane.bootstrap()
    expect(boot?.run.chatJid).toBe('auto')
    await boot!.done
    await dreamlane.close()
  })
})

describe('/dream status while a dream of any mode runs', () => {
  it('names a running bootstrap dream', async () => {
    const world = await makeDreamWorld()
    rmSync(join(world.paths.memory, 'MEMORY.md'))
    // A slow model: the bootstrap is still in its model turn when status is asked.
    const dreamlane = world.open({ provider: createScriptedProvider([{ waitMs: 60_000 }]) })
    const boot = await dreamlane.bootstrap()
    const reply = async () => (await dreamlane.handleChatInput('web:main', '/dream status')) ?? ''
    for (let i = 0; i < 200 && dreamlane.getRun(boot!.run.id).status !== 'running'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10))
    const text = await reply()
    expect(text).toMatch(new RegExp(`A bootstrap dream is running now: ${boot!.run.id}`))
    expect(text).not.toMatch(/No dream is running/)
    await dreamlane.shutdown()
    const reopened = world.open()
    expect(await reopened.handleChatInput('web:main', '/dream status')).toMatch(/No dream is running/)
    await reopened.close()
  })

  it('names a bootstrap run another process has queued before it took the lock', async () => {
    const world = await makeDreamWorld()
    const other = world.open()
    const queued = other.runs.open({ mode: 'bootstrap', chatJid: 'web:main', days: 7 })
    const dreamlane = world.open()
    const text = (await dreamlane.handleChatInput('web:main', '/dream status')) ?? ''
    expect(text).toMatch(new RegExp(`A bootstrap dream is queued now: ${queued.id} \\(queued at `))
    expect((await dreamlane.status()).runningRun?.id).toBe(queued.id)
    // Past the run timeout a queued record is a leftover, not a dream in flight.
    world.clock.set('2026-11-22T20:00:00.000Z')
    expect(await dreamlane.handleChatInput('web:main', '/dream status')).toMatch(/No dream is running/)
    await dreamlane.close()
    await other.close()
  })
})

describe('the session-idle trigger', () => {
  async function idleWorld(idleMinutes?: number) {
    const world = await makeDreamWorld()
    const { clock, timers, advanceTo } = fakeTimers(NOW)
    const config = { ...world.config, autoDream: { ...world.config.autoDream, idleMinutes } }
    const dreamlane = world.open({ config, clock, timers })
    dreamlane.startAutoDream()
    const autoRuns = () => dreamlane.runs.list({ limit: 50 }).filter((run) => run.mode === 'auto')
    /** Lets the gate's file reads finish and any queued dream run to its end. */
    const settle = async () => {
      for (let i = 0; i < 50 && !autoRuns().every((run) => run.finishedAt); i++)
        await new Promise((resolve) => setTimeout(resolve, 20))
      await new Promise((resolve) => setTimeout(resolve, 100))
      await dreamlane.lanes.onIdle()
    }
    const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString()
    return { dreamlane, advanceTo, autoRuns, settle, at }
  }

  it('queues one AutoDream-mode run after 30 quiet minutes; every message restarts the wait', async () => {
    const { dreamlane, advanceTo, autoRuns, settle, at } = await idleWorld(30)
    await dreamlane.handleChatInput('web:main', 'hello')
    await advanceTo(at(20))
    await dreamlane.handleChatInput('web:main', 'one more thing')
    await advanceTo(at(49))
    await settle()
    expect(autoRuns()).toEqual([])
    await advanceTo(at(50))
    await settle()
    expect(autoRuns().map((run) => [run.status, run.createdAt])).toEqual([['succeeded', at(50)]])
    // The next quiet spell meets the time gate: refused before any record is written.
    await dreamlane.handleChatInput('web:kitchen', 'later')
    await advanceTo(at(90))
    await settle()
    expect(autoRuns()).toHaveLength(1)
    await dreamlane.shutdown()
  })

  it('is off unless autoDream.idleMinutes is set', async () => {
    const { dreamlane, advanceTo, autoRuns, settle, at } = await idleWorld()
    await dreamlane.handleChatInput('web:main', 'hello')
    await advanceTo(at(240))
    await settle()
    expect(autoRuns()).toEqual([])
    await dreamlane.shutdown()
  })
})
