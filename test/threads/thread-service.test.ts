import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DreamlaneError } from '../../src/errors.js'
import { threadService } from '../../src/threads/thread-service.js'
import { threadModule } from '../../src/threads/thread-task.js'
import type { EchoServiceData, EchoServiceRequest } from './echo-service.js'

const ECHO = threadModule(import.meta.url, './echo-service')

function service(data: EchoServiceData = { failOpens: 0 }) {
  const started = threadService(ECHO, data)
  onTestFinished(() => started.close())
  return {
    ...started,
    ask: <Answer>(request: EchoServiceRequest) => started.request<Answer>(request),
  }
}

describe('threadService', () => {
  it('answers each request on one long-lived thread, by id, as each finishes', async () => {
    const echo = service()
    const value = { nested: [1, 'two', { three: new Date('2026-11-25T00:00:00Z') }] }
    const order: string[] = []
    const slow = echo.ask({ kind: 'echo', value: 'slow', delayMs: 80 }).then((a) => (order.push('slow'), a))
    const fast = echo.ask({ kind: 'echo', value }).then((a) => (order.push('fast'), a))
    expect(await fast).toEqual({ echoed: value, openedAt: 1 })
    expect(await slow).toEqual({ echoed: 'slow', openedAt: 1 })
    expect(order).toEqual(['fast', 'slow'])
    const first = await echo.ask<number>({ kind: 'thread' })
    expect(first).not.toBe(threadId)
    expect(await echo.ask<number>({ kind: 'thread' })).toBe(first)
  })

  it("keeps a DreamlaneError's code, and a library error's code without making it one", async () => {
    const echo = service()
    const coded = await echo.ask({ kind: 'coded' }).catch((caught: unknown) => caught)
    expect(coded).toBeInstanceOf(DreamlaneError)
    expect(coded).toMatchObject({ code: 'MESSAGES_DB_BUSY', message: 'the DB is locked by pid 1' })
    const library = await echo.ask({ kind: 'library' }).catch((caught: unknown) => caught)
    expect(library).not.toBeInstanceOf(DreamlaneError)
    expect(library).toMatchObject({ code: 'SQLITE_BUSY', message: 'database is locked' })
    // The thread answers on after an error.
    await expect(echo.ask({ kind: 'echo', value: 1 })).resolves.toMatchObject({ echoed: 1 })
  })

  it('opens again on the next request when opening failed (a DB busy at first)', async () => {
    const echo = service({ failOpens: 1 })
    await expect(echo.ask({ kind: 'echo', value: 1 })).rejects.toMatchObject({
      code: 'MESSAGES_DB_BUSY',
      message: 'open 1 failed on purpose',
    })
    await expect(echo.ask({ kind: 'echo', value: 2 })).resolves.toEqual({ echoed: 2, openedAt: 2 })
  })

  it('rejects what a dying thread owed, and starts a new thread for the next request', async () => {
    const echo = service()
    const before = await echo.ask<number>({ kind: 'thread' })
    const owed = expect(echo.ask({ kind: 'echo', value: 'never', delayMs: 5_000 })).rejects.toThrow(
      /exited with code 3/,
    )
    await expect(echo.ask({ kind: 'exit' })).rejects.toThrow(/exited with code 3/)
    await owed
    const after = await echo.ask<number>({ kind: 'thread' })
    expect(after).not.toBe(before)
  })

  it('refuses requests once closed', async () => {
    const echo = service()
    await echo.ask({ kind: 'echo', value: 1 })
    const owed = expect(echo.ask({ kind: 'echo', value: 'never', delayMs: 5_000 })).rejects.toThrow(
      /was closed/,
    )
    await echo.close()
    await owed
    await expect(echo.ask({ kind: 'echo', value: 2 })).rejects.toThrow(/is closed/)
  })

  it('never keeps the process alive while idle', () => {
    // A process that answered one request and never closed its service still exits by itself.
    const script = `
      import { threadService } from ${JSON.stringify(new URL('../../src/threads/thread-service.ts', import.meta.url).href)}
      const echo = threadService(new URL(${JSON.stringify(ECHO.href)}), { failOpens: 0 })
      console.log(JSON.stringify(await echo.request({ kind: 'echo', value: 'once' })))
    `
    const dir = mkdtempSync(join(tmpdir(), 'dreamlane-service-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    writeFileSync(join(dir, 'once.mts'), script)
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(dir, 'once.mts')], {
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(JSON.parse(out)).toEqual({ echoed: 'once', openedAt: 1 })
  })
})
