import { Worker } from 'node:worker_threads'
import { describe, expect, it, onTestFinished } from 'vitest'
import { threadedProvider } from '../../src/model/threaded.js'
import { EMPTY_USAGE, type TurnInput } from '../../src/model/provider.js'
import { BACKGROUND_NICE, lowerOtherThreads } from '../../src/threads/thread-priority.js'
import { threadService } from '../../src/threads/thread-service.js'
import { runThreadTask, threadModule } from '../../src/threads/thread-task.js'
import type { ToolSet } from '../../src/tools/types.js'
import { niceOfThread, niceOfThisThread } from './nice.js'

const PRIORITY_TASK = threadModule(import.meta.url, './priority-task')
const ECHO_SERVICE = threadModule(import.meta.url, './echo-service')
const TURN_WORKER = new URL('../fixtures/threaded-worker.ts', import.meta.url)

describe.runIf(process.platform === 'linux')('a background thread’s priority', () => {
  it('is lowered for that thread alone: the event loop’s thread keeps its own', async () => {
    const before = niceOfThisThread()
    const result = await runThreadTask<{ isLowered: boolean; nice: number }>(PRIORITY_TASK, null)
    expect(result).toEqual({ isLowered: true, nice: Math.max(before, BACKGROUND_NICE) })
    expect(niceOfThisThread()).toBe(before)
  })

  // An engine's turn and a message reader each fill a core for a while: with two cores, the event loop's
  // thread (chat turns, HTTP) would otherwise wait its turn behind them.
  it('is lowered in a service thread and in an engine’s turn thread', async () => {
    const before = niceOfThisThread()
    const expected = Math.max(before, BACKGROUND_NICE)
    const service = threadService(ECHO_SERVICE, { failOpens: 0 })
    onTestFinished(() => service.close())
    expect(await service.request<number>({ kind: 'nice' })).toBe(expected)
    const engine = threadedProvider({ name: 'fixture', entry: TURN_WORKER, idleMs: 0 })
    const input = { prompt: 'nice' } as TurnInput
    const noTools: ToolSet = {
      specs: () => [],
      call: async () => ({ ok: false, content: 'no tools here' }),
      calls: () => [],
      changedFiles: () => [],
    }
    const turn = await engine.runTurn(input, noTools, new AbortController().signal)
    expect(turn).toMatchObject({ stop: 'end', usage: EMPTY_USAGE })
    expect(JSON.parse(turn.text)).toEqual({ nice: expected })
    expect(niceOfThisThread()).toBe(before)
  })

  // V8's GC helpers and libuv's pool are shared by every thread: a dream's collections ran there at the event loop's
  // priority until the host lowered them.
  it('lowers every other thread of the process, and not the calling one', async () => {
    const before = niceOfThisThread()
    // A thread that leaves its priority alone (dreamlane's own threads lower theirs as they start). It stays alive
    // until terminated: one that ended after posting its id could be gone from /proc before its nice is read.
    const plain = new Worker(
      "const { parentPort } = require('node:worker_threads'); const { readlinkSync } = require('node:fs');" +
        "parentPort.postMessage(Number(readlinkSync('/proc/thread-self').split('/').pop()));" +
        'setInterval(() => {}, 60_000)',
      { eval: true },
    )
    onTestFinished(async () => void (await plain.terminate()))
    const tid = await new Promise<number>((resolve) => plain.once('message', resolve))
    expect(niceOfThread(tid)).toBe(before) // a thread starts at its creator's priority
    expect(lowerOtherThreads(before + 1)).toBeGreaterThan(0)
    expect(niceOfThread(tid)).toBe(before + 1)
    expect(niceOfThisThread()).toBe(before)
    expect(lowerOtherThreads(before + 1)).toBe(0) // already there: nothing to change
  })
})
