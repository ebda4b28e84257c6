import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { openDreamThread } from '../../src/app/dream-thread.js'
import type { DreamEvent } from '../../src/dream/deps.js'
import { RunStore } from '../../src/dream/runs.js'
import type { PostedSummary } from '../../src/dream/types.js'
import { fixedClock } from '../../src/clock.js'
import { openStateDb } from '../../src/db/state.js'
import { generateSample } from '../../src/sample/generate.js'
import { makeDreamWorld, NOW } from '../helpers/dream-world.js'
import { makeWorkspace } from '../helpers/workspace.js'
import { initWorkspace } from '../../src/notes/init-workspace.js'

/** A world whose messages are the generated sample: enough for the offline engine to write real notes. */
async function sampleWorld() {
  const world = await makeDreamWorld([])
  await generateSample({ file: world.paths.messagesDb, now: new Date(NOW), timeZone: world.config.timezone })
  return world
}

/** Every file under notes/, with clock readings and run ids blanked (the thread's clock moves on from the host's). */
function notesOf(notes: string): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name)
      if (statSync(full).isDirectory()) walk(full)
      else files.set(relative(notes, full), blankTimes(readFileSync(full, 'utf8')))
    }
  }
  walk(notes)
  return files
}

const blankTimes = (text: string): string =>
  text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>')
    .replace(/\b\d\d:\d\d\b/g, '<hh:mm>')
    .replace(/\brun-\d{8}T\d{9}Z-[0-9a-f]+/g, '<run>')
    .replace(/\b\d{8}T\d{6}Z-/g, '<backup>-')

const describeEvent = (event: DreamEvent): string =>
  event.type === 'step'
    ? `step ${event.step} ${event.phase} ${event.ok ?? ''}`
    : event.type === 'tool'
      ? `tool ${event.name} ${event.ok}`
      : event.type

/** A logger that keeps every line it writes. */
function capturingLogger(level = 'info') {
  const lines: Record<string, unknown>[] = []
  const logger = pino(
    { level },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  )
  return { logger, lines }
}

describe('dreams on their own thread (dreamThread)', () => {
  it('writes the same notes, record, events and summary as a dream on the host thread, and logs through the host', async () => {
    const outcomes = []
    for (const dreamThread of [false, true]) {
      const world = await sampleWorld()
      const { logger, lines } = capturingLogger()
      const events: string[] = []
      const summaries: PostedSummary[] = []
      const dreamlane = world.open({
        dreamThread,
        logger,
        env: {},
        onEvent: (event) => events.push(describeEvent(event)),
        onSummary: (summary) => void summaries.push(summary),
      })
      const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 7 })
      const stored = dreamlane.runs.get(run.id).status
      await dreamlane.close()
      outcomes.push({
        notes: notesOf(world.paths.notes),
        status: run.status,
        steps: run.steps.map((step) => `${step.name}:${step.ok}`),
        summary: blankTimes(run.summary ?? ''),
        posted: summaries.map((s) => blankTimes(s.text)),
        events,
        fromThread: lines.filter((line) => line.thread === 'dream').length,
        stored,
      })
    }
    const [here, there] = outcomes
    expect(here!.status).toBe('succeeded')
    expect(there!.notes.size).toBeGreaterThan(5)
    expect(there!.notes).toEqual(here!.notes)
    expect({ ...there, notes: null, fromThread: 0 }).toEqual({ ...here, notes: null, fromThread: 0 })
    // Every event, in the same order (the thread sends them in batches).
    expect(new Set(there!.events.map((event) => event.split(' ')[0]))).toEqual(
      new Set(['queued', 'step', 'tool', 'finished']),
    )
    expect(there!.posted).toHaveLength(1)
    // The thread's log lines reach the host's logger, marked as the dream thread's; in-process ones are not.
    expect(here!.fromThread).toBe(0)
    expect(there!.fromThread).toBeGreaterThan(0)
  }, 60_000)

  it('warms up before the first dream when asked: the thread loads what a dream needs, then dreams as usual', async () => {
    for (const dreamThread of [false, true]) {
      const world = await sampleWorld()
      const { logger, lines } = capturingLogger('debug')
      const dreamlane = world.open({ dreamThread, logger, env: {} })
      await dreamlane.warmDreams()
      const warmed = lines.filter((line) => line.msg === 'dream thread warmed')
      // Without a dream thread the lifecycle's modules load here, and the thread has nothing to say.
      expect(warmed).toEqual(dreamThread ? [expect.objectContaining({ thread: 'dream' })] : [])
      const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 7 })
      expect(run.status).toBe('succeeded')
      await dreamlane.close()
    }
  }, 60_000)

  it("waits for the host's summary hook before the dream settles, and a failing hook is logged, not fatal", async () => {
    const world = await sampleWorld()
    const { logger, lines } = capturingLogger()
    const order: string[] = []
    const dreamlane = world.open({
      dreamThread: true,
      logger,
      env: {},
      onSummary: async () => {
        await new Promise((resolve) => setTimeout(resolve, 50))
        order.push('hook')
        throw new Error('the chat transport is down')
      },
    })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    order.push('settled')
    await dreamlane.close()
    expect(run.status).toBe('succeeded')
    expect(order).toEqual(['hook', 'settled'])
    expect(lines.some((line) => line.msg === 'onSummary hook failed')).toBe(true)
  }, 60_000)

  it('cancels the running dream when the host shuts down, and puts the notes back', async () => {
    const world = await sampleWorld()
    const before = notesOf(world.paths.notes)
    let shutdown: Promise<void> | null = null
    const dreamlane = world.open({
      dreamThread: true,
      env: {},
      onEvent: (event) => {
        // The notes are seeded; the model turn is about to start on the thread.
        if (event.type === 'step' && event.step === 'seed' && event.phase === 'end')
          shutdown ??= dreamlane.shutdown()
      },
    })
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 7 })
    await shutdown
    expect(run.status).toBe('cancelled')
    expect(run.reason).toMatch(/^cancelled \(shutdown\)/)
    expect(notesOf(world.paths.notes)).toEqual(before)
    expect(existsSync(world.paths.lockFile)).toBe(false)
  }, 60_000)

  it('sends step and tool events only to a host that listens; the finished event always', async () => {
    const heard = []
    for (const progress of [false, true]) {
      const world = await sampleWorld()
      const state = openStateDb(world.paths.stateDb)
      const runs = new RunStore(state, world.clock, world.config.timezone)
      const events: string[] = []
      const thread = openDreamThread({
        data: { config: world.config, env: {}, logLevel: 'silent', progress },
        ...{ clock: world.clock, runs, lockFile: world.paths.lockFile, log: pino({ level: 'silent' }) },
        onEvent: (event) => events.push(event.type),
      })
      try {
        const request = { mode: 'manual' as const, chatJid: 'web:main', days: 2 }
        const run = await thread.run(runs.open(request).id, request)
        expect(run.status).toBe('succeeded')
      } finally {
        await thread.close()
        state.close()
      }
      heard.push([...new Set(events)])
    }
    expect(heard).toEqual([['finished'], ['step', 'tool', 'finished']])
  }, 60_000)

  it('a thread that dies mid-dream leaves its run lost and frees its lock; the next run gets a new thread', async () => {
    const ws = makeWorkspace()
    await initWorkspace(ws.paths)
    const state = openStateDb(ws.paths.stateDb)
    const clock = fixedClock(NOW)
    const runs = new RunStore(state, clock, 'UTC')
    const thread = openDreamThread({
      data: { config: ws.config, env: {}, logLevel: 'silent', progress: false },
      entry: new URL('../fixtures/dying-dream-thread.ts', import.meta.url),
      ...{ clock, runs, lockFile: ws.paths.lockFile, log: pino({ level: 'silent' }) },
    })
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const request = { mode: 'manual' as const, chatJid: 'web:main', days: 1 }
        const queued = runs.open(request)
        const run = await thread.run(queued.id, request)
        expect(run).toMatchObject({ id: queued.id, status: 'lost' })
        expect(run.reason).toMatch(/dream thread stopped before the run finished: .*exited with code 3/)
        expect(existsSync(ws.paths.lockFile)).toBe(false)
      }
    } finally {
      await thread.close()
      state.close()
    }
  }, 30_000)
})
