import { describe, expect, it, vi } from 'vitest'
import { DreamlaneError } from '../../src/errors.js'
import {
  runThreadTask,
  startThreadStream,
  startThreadTask,
  threadModule,
} from '../../src/threads/thread-task.js'
import type { EchoRequest } from './echo-task.js'

const ECHO = threadModule(import.meta.url, './echo-task')
const run = (request: EchoRequest, options = {}) => runThreadTask(ECHO, request, options)

describe('runThreadTask', () => {
  it('runs the task in a thread on structured-cloned data, and hands over what it posts in order', async () => {
    const posted: unknown[] = []
    const value = { nested: [1, 'two', { three: new Date('2026-11-25T00:00:00Z') }] }
    const result = await run({ kind: 'echo', value, posts: 3 }, { onMessage: (v: unknown) => posted.push(v) })
    expect(result).toEqual({ echoed: value })
    expect(posted).toEqual([{ step: 0 }, { step: 1 }, { step: 2 }])
  })

  it("keeps a DreamlaneError's code and name, so the same exit code and HTTP status follow", async () => {
    const error = await run({ kind: 'coded' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(DreamlaneError)
    expect(error).toMatchObject({ code: 'MESSAGES_DB_BUSY', message: 'the DB is locked by pid 1' })
    expect((error as Error).stack).toContain('echo-task')
  })

  it("keeps a library error's code (SQLite's SQLITE_BUSY) without making it a DreamlaneError", async () => {
    const error = await run({ kind: 'library' }).catch((caught: unknown) => caught)
    expect(error).not.toBeInstanceOf(DreamlaneError)
    expect(error).toMatchObject({ code: 'SQLITE_BUSY', message: 'database is locked' })
  })

  it('rejects when the thread exits before it finishes', async () => {
    await expect(run({ kind: 'exit' })).rejects.toThrow(/exited with code 3 before finishing/)
  })

  it('ends the thread when the signal aborts, rejecting with its reason', async () => {
    const stop = new AbortController()
    const pending = run({ kind: 'hang' }, { signal: stop.signal })
    setTimeout(() => stop.abort(new Error('stopped by the test')), 50)
    await expect(pending).rejects.toThrow('stopped by the test')
  })
})

describe('startThreadTask', () => {
  it('starts the thread before the data exists and runs the task on what send hands over', async () => {
    const posted: unknown[] = []
    const task = startThreadTask(ECHO, { onMessage: (v: unknown) => posted.push(v) })
    // Long enough for the thread to have loaded its module and be waiting.
    await new Promise((resolve) => setTimeout(resolve, 300))
    task.send({ kind: 'echo', value: ['late', 2], posts: 2 } satisfies EchoRequest)
    await expect(task.result).resolves.toEqual({ echoed: ['late', 2] })
    expect(posted).toEqual([{ step: 0 }, { step: 1 }])
  })

  it('keeps data sent at once, before the thread has loaded anything', async () => {
    const task = startThreadTask(ECHO)
    task.send({ kind: 'echo', value: 'early', posts: 0 } satisfies EchoRequest)
    await expect(task.result).resolves.toEqual({ echoed: 'early' })
  })

  it('ends a thread still waiting for its data when the signal aborts', async () => {
    const stop = new AbortController()
    const task = startThreadTask(ECHO, { signal: stop.signal })
    setTimeout(() => stop.abort(new Error('never needed')), 50)
    await expect(task.result).rejects.toThrow('never needed')
  })

  it('passes on the error of a task started early', async () => {
    const task = startThreadTask(ECHO)
    task.send({ kind: 'coded' } satisfies EchoRequest)
    await expect(task.result).rejects.toMatchObject({ code: 'MESSAGES_DB_BUSY' })
  })
})

describe('startThreadStream', () => {
  const SUM = threadModule(import.meta.url, './sum-stream')

  it('works on each value as it is sent, in order, and reports its result once the stream ends', async () => {
    const totals: unknown[] = []
    const stream = startThreadStream<number>(SUM, { onMessage: (total: unknown) => totals.push(total) })
    // Sent before the thread has loaded anything, then more after it has answered.
    stream.send(1)
    stream.send(2)
    await vi.waitFor(() => expect(totals).toEqual([1, 3]), { timeout: 10_000 })
    stream.send(4)
    stream.end()
    await expect(stream.result).resolves.toBe(7)
    expect(totals).toEqual([1, 3, 7])
  })

  it('passes on the error of a value the task cannot take', async () => {
    const stream = startThreadStream<number>(SUM)
    stream.send(1)
    stream.send('two')
    await expect(stream.result).rejects.toThrow('not a number: "two"')
  })

  it('ends a thread still waiting for values when the signal aborts', async () => {
    const stop = new AbortController()
    const stream = startThreadStream<number>(SUM, { signal: stop.signal })
    stream.send(1)
    setTimeout(() => stop.abort(new Error('no more needed')), 50)
    await expect(stream.result).rejects.toThrow('no more needed')
  })
})
