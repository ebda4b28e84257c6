import { describe, expect, it } from 'vitest'
import { BACKGROUND_NICE } from '../../src/threads/thread-priority.js'
import { runThreadTask, threadModule } from '../../src/threads/thread-task.js'
import { niceOfThisThread } from './nice.js'

const PRIORITY_TASK = threadModule(import.meta.url, './priority-task')

describe.runIf(process.platform === 'linux')('a background thread’s priority', () => {
  it('is lowered for that thread alone: the event loop’s thread keeps its own', async () => {
    const before = niceOfThisThread()
    const result = await runThreadTask<{ isLowered: boolean; nice: number }>(PRIORITY_TASK, null)
    expect(result).toEqual({ isLowered: true, nice: Math.max(before, BACKGROUND_NICE) })
    expect(niceOfThisThread()).toBe(before)
  })
})
