import { describe, expect, it, onTestFinished } from 'vitest'
import { threadedProvider } from '../../src/model/threaded.js'
import { EMPTY_USAGE, type TurnInput } from '../../src/model/provider.js'
import { BACKGROUND_NICE } from '../../src/threads/thread-priority.js'
import { threadService } from '../../src/threads/thread-service.js'
import { runThreadTask, threadModule } from '../../src/threads/thread-task.js'
import type { ToolSet } from '../../src/tools/types.js'
import { niceOfThisThread } from './nice.js'

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
})
