// The threaded provider: turns run on a worker thread, every tool call on the main thread's real ToolSet.
import { setTimeout as sleep } from 'node:timers/promises'
import { threadId } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { selectProvider } from '../../src/model/select.js'
import { threadedProvider } from '../../src/model/threaded.js'
import type { ModelProvider } from '../../src/model/provider.js'
import type { ToolResult, ToolSet } from '../../src/tools/types.js'
import { makeDreamWorld } from './offline/world.js'

const FIXTURE_ENTRY = new URL('../fixtures/threaded-worker.ts', import.meta.url)
const fixture = threadedProvider({ name: 'fixture', entry: FIXTURE_ENTRY })

/** One fixture turn over a real dream world; `prompt` names what the worker does. */
async function fixtureTurn(prompt: string, signal?: AbortSignal, provider = fixture) {
  const world = await makeDreamWorld({ days: 2 })
  let tools: ToolSet | undefined
  const turn = world.turn({
    provider: { ...provider, runTurn: (input, set, s) => provider.runTurn({ ...input, prompt }, set, s) },
    wrapTools: (real) => (tools = real),
    ...(signal ? { signal } : {}),
  })
  return { world, turn, tools: () => tools }
}

describe('threadedProvider', () => {
  it('runs the turn on another thread; its tool calls go through the main thread’s ToolSet, boundary and record', async () => {
    const { world, turn, tools } = await fixtureTurn('tools')
    const result = await turn
    const seen = JSON.parse(result.text) as {
      threadId: number
      read: { ok: boolean; content: string }
      outside: { ok: boolean; code?: string }
    }
    expect(seen.threadId).not.toBe(threadId)
    expect(seen.read).toMatchObject({ ok: true, content: world.read('notes/memory/user.md') })
    expect(seen.outside).toMatchObject({ ok: false, code: 'PATH_OUT_OF_SCOPE' })
    expect(
      tools()
        ?.calls()
        .map((call) => [call.name, call.ok]),
    ).toEqual([
      ['read_file', true],
      ['write_file', false],
    ])
  })

  it('keeps the main event loop free while the turn computes', async () => {
    const { turn } = await fixtureTurn('busy')
    let worst = 0
    let last = performance.now()
    const timer = setInterval(() => {
      const now = performance.now()
      worst = Math.max(worst, now - last)
      last = now
    }, 5)
    await turn
    clearInterval(timer)
    // The worker spins for 400 ms; on the main thread that would be one 400 ms gap.
    expect(worst).toBeLessThan(250)
  })

  it('reuses a worker that finished its turn, and replaces one that died mid-turn', async () => {
    const first = JSON.parse((await (await fixtureTurn('busy')).turn).text) as { threadId: number }
    const second = JSON.parse((await (await fixtureTurn('busy')).turn).text) as { threadId: number }
    expect(second.threadId).toBe(first.threadId)
    await expect((await fixtureTurn('exit')).turn).rejects.toThrow(/worker exited \(code 3\) mid-turn/)
    const after = JSON.parse((await (await fixtureTurn('busy')).turn).text) as { threadId: number }
    expect(after.threadId).not.toBe(first.threadId)
  })

  it('prepares a worker before the turn, which the turn then takes instead of starting its own', async () => {
    // An entry of its own, so no worker parked by another test stands in for the prepared one.
    const entry = new URL(`${FIXTURE_ENTRY.href}?prepared`)
    const loaded = async (provider: ModelProvider) =>
      JSON.parse((await (await fixtureTurn('loaded', undefined, provider)).turn).text) as { loadedAt: number }
    const cold = threadedProvider({ name: 'fixture', entry: new URL(`${FIXTURE_ENTRY.href}?cold`) })
    const coldStart = Date.now()
    expect((await loaded(cold)).loadedAt).toBeGreaterThanOrEqual(coldStart)
    const ready = threadedProvider({ name: 'fixture', entry })
    ready.prepare!()
    ready.prepare!()
    await sleep(3_000)
    const turnStart = Date.now()
    expect((await loaded(ready)).loadedAt).toBeLessThan(turnStart)
  })

  it('ends an idle worker after idleMs, and keeps it for good with Infinity (not a timer clamped to 1 ms)', async () => {
    const threadOf = async (provider: typeof fixture) =>
      (JSON.parse((await (await fixtureTurn('busy', undefined, provider)).turn).text) as { threadId: number })
        .threadId
    const brief = threadedProvider({ name: 'fixture', entry: FIXTURE_ENTRY, idleMs: 50 })
    const kept = threadedProvider({ name: 'fixture', entry: FIXTURE_ENTRY, idleMs: Infinity })
    const first = await threadOf(brief)
    await sleep(300)
    const second = await threadOf(kept)
    expect(second).not.toBe(first)
    await sleep(300)
    expect(await threadOf(kept)).toBe(second)
  })

  it('moves a page read on the reader thread on to the engine’s thread as bytes: the same text there, checked and recorded here', async () => {
    const world = await makeDreamWorld({ days: 7 })
    const pageTurn = async (readsOnThread: boolean) => {
      const results: ToolResult[] = []
      let tools: ToolSet | undefined
      const turn = await world.turn({
        provider: {
          ...fixture,
          runTurn: (input, set, s) => fixture.runTurn({ ...input, prompt: 'page' }, set, s),
        },
        readsOnThread,
        wrapTools: (real) => {
          tools = real
          return {
            ...real,
            call: async (...args) => (results.push(await real.call(...args)), results.at(-1)!),
          }
        },
      })
      const { page } = JSON.parse(turn.text) as { page: ToolResult }
      return { page, result: results[0] as ToolResult, record: tools?.calls()[0] }
    }
    const onMain = await pageTurn(false)
    const moved = await pageTurn(true)
    expect(onMain.page).toMatchObject({ ok: true })
    expect(onMain.page.content.length).toBeGreaterThan(2000)
    expect(moved.page).toEqual(onMain.page)
    expect(moved.record).toMatchObject({ name: 'get_messages', ok: true })
    // The record's preview is the page's start, less the word the cut went through (it may be half a secret).
    const preview = moved.record?.preview ?? ''
    expect(preview.length).toBeGreaterThan(180)
    expect(onMain.page.content.startsWith(preview)).toBe(true)
    // The main thread handed the bytes on (transferred, not cloned): its own copy of the result is gone.
    expect(() => moved.result.content).toThrow('handed to another thread')
    expect(onMain.result.content).toBe(onMain.page.content)
  })

  it('rejects with the engine’s own error message', async () => {
    await expect((await fixtureTurn('throw')).turn).rejects.toThrow('engine broke on purpose')
  })

  it('passes an abort to the worker', async () => {
    const abort = new AbortController()
    const { turn } = await fixtureTurn('wait-for-abort', abort.signal)
    setTimeout(() => abort.abort(), 50)
    await expect(turn).resolves.toMatchObject({ stop: 'aborted', text: 'stopped on abort' })
  })
})

describe('the offline engine as selected with no key', () => {
  it('runs in its worker and writes exactly what the in-process engine writes', async () => {
    const inProcess = await makeDreamWorld()
    const threaded = await makeDreamWorld()
    const selected = selectProvider(threaded.config, {})
    expect(selected.name).toBe('offline')
    const direct = await inProcess.dream()
    const viaWorker = await threaded.dream({ provider: selected.provider })
    expect(viaWorker.stop).toBe('end')
    expect(viaWorker.transcript).toEqual(direct.transcript)
    expect(threaded.snapshot()).toEqual(inProcess.snapshot())
  })

  it('writes the same notes when its message pages are read on the reader thread, over many pages', async () => {
    // 4,500 messages over the window: three get_messages pages of up to 2,000, resumed by cursor.
    const messages = Array.from({ length: 4500 }, (_, i) => ({
      id: `m${String(i).padStart(5, '0')}`,
      chatJid: `chat:${i % 3}`,
      content: i % 2 ? `I moved to Porto in ${2000 + (i % 20)}` : `Remind me to water the basil on day ${i}`,
      timestamp: new Date(Date.parse('2026-11-17T08:00:00Z') + i * 120_000).toISOString(),
      isBotMessage: i % 5 === 0,
    }))
    const onMain = await makeDreamWorld({ messages })
    const onReader = await makeDreamWorld({ messages })
    const offline = selectProvider(onReader.config, {}).provider
    const direct = await onMain.dream({ provider: offline })
    const pages: string[] = []
    const viaReader = await onReader.dream({
      provider: offline,
      readsOnThread: true,
      wrapTools: (real) => ({
        ...real,
        call: async (name, input, signal) => {
          const result = await real.call(name, input, signal)
          if (name === 'get_messages') pages.push(result.content)
          return result
        },
      }),
    })
    expect(pages.length).toBeGreaterThanOrEqual(3)
    expect(viaReader.transcript).toEqual(direct.transcript)
    expect(onReader.snapshot()).toEqual(onMain.snapshot())
  })
})
