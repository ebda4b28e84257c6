import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import { readBackupFiles } from '../../src/backup/verify.js'
import { openMessagesDb } from '../../src/db/messages.js'
import { openStateDb } from '../../src/db/state.js'
import { RunStore } from '../../src/dream/runs.js'
import { systemClock } from '../../src/clock.js'
import { initWorkspace } from '../../src/notes/init-workspace.js'
import { openAiReply, startFakeOpenAi, type FakeServer } from '../helpers/fake-openai.js'
import { makeMessagesDb, makeWorkspace, type TestWorkspace } from '../helpers/workspace.js'

const BIN = fileURLToPath(new URL('../../bin/dreamlane.js', import.meta.url))
const WRITTEN = '# User\n\n- Written by the model just before the crash.\n'

interface Served {
  child: ChildProcessWithoutNullStreams
  output: () => string
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>
}

function serve(ws: TestWorkspace, env: Record<string, string>): Served {
  const child = spawn(process.execPath, [BIN, '--workspace', ws.dir, 'serve', '--stdin-chat', 'web:main'], {
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', ...env },
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, atMs: performance.now() })),
  )
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  return {
    child,
    output: () => out,
    exited,
    async waitFor(pattern, timeoutMs = 30_000) {
      const deadline = performance.now() + timeoutMs
      while (!pattern.test(out)) {
        if (performance.now() > deadline)
          throw new Error(`timed out waiting for ${pattern}; output so far:\n${out}`)
        if (child.exitCode !== null)
          throw new Error(`serve exited (${child.exitCode}) before ${pattern}:\n${out}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
  }
}

async function waitForRequests(server: FakeServer, count: number): Promise<void> {
  const deadline = performance.now() + 30_000
  while (server.requests.length < count) {
    if (performance.now() > deadline)
      throw new Error(`the fake saw ${server.requests.length} request(s), wanted ${count}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A workspace whose dream writes user.md through the model, then hangs on the next model request. */
async function hangingDream(): Promise<{
  ws: TestWorkspace
  server: FakeServer
  env: Record<string, string>
}> {
  const ws = makeWorkspace()
  await initWorkspace(ws.paths)
  const today = new Date().toISOString().slice(0, 10)
  makeMessagesDb(ws.paths, [
    {
      chatJid: 'web:main',
      content: 'We decided to ship Atlas on Friday.',
      timestamp: `${today}T00:00:01.000Z`,
    },
  ]).close()
  const server = await startFakeOpenAi([
    openAiReply.tools([
      { name: 'write_file', arguments: { path: 'notes/memory/user.md', content: WRITTEN } },
    ]),
    { hang: true },
  ])
  onTestFinished(() => server.close())
  const env = {
    DREAMLANE_PROVIDER: 'openai-compatible',
    DREAMLANE_OPENAI_BASE_URL: `${server.url}/v1`,
    DREAMLANE_OPENAI_MODEL: 'fake-model',
  }
  return { ws, server, env }
}

function runsOf(ws: TestWorkspace) {
  const state = openStateDb(ws.paths.stateDb)
  onTestFinished(() => {
    state.close()
  })
  return new RunStore(state, systemClock, 'UTC')
}

describe('dreamlane serve, as a process', () => {
  it('SIGTERM during a dream: exits within 5 s, run cancelled, lock released', async () => {
    const { ws, server, env } = await hangingDream()
    const served = serve(ws, env)
    await served.waitFor(/dreamlane serving/)
    served.child.stdin.write('/dream 1\n')
    await waitForRequests(server, 2)
    expect(existsSync(ws.paths.lockFile)).toBe(true)
    const sentAt = performance.now()
    served.child.kill('SIGTERM')
    const exit = await served.exited
    expect(exit.atMs - sentAt).toBeLessThan(5_000)
    expect(exit.code).toBe(0)
    expect(existsSync(ws.paths.lockFile)).toBe(false)
    const [run] = runsOf(ws).list()
    expect(run?.status).toBe('cancelled')
  }, 60_000)

  it('SIGKILL during a dream, then restart: run lost, lock reaped, channel gone, notes consistent', async () => {
    const { ws, server, env } = await hangingDream()
    const served = serve(ws, env)
    await served.waitFor(/dreamlane serving/)
    served.child.stdin.write('/dream 1\n')
    await waitForRequests(server, 2)
    served.child.kill('SIGKILL')
    await served.exited
    expect(existsSync(ws.paths.lockFile)).toBe(true)

    const restarted = serve(ws, {})
    await restarted.waitFor(/dreamlane serving/)
    expect(restarted.output()).toMatch(
      /recovered: 1 run\(s\) marked lost, lock reaped, 1 dream channel\(s\) removed/,
    )
    restarted.child.kill('SIGTERM')
    await restarted.exited

    const [run] = runsOf(ws).list()
    expect(run?.status).toBe('lost')
    expect(existsSync(ws.paths.lockFile)).toBe(false)
    const messages = openMessagesDb(ws.paths.messagesDb, { readonly: true })
    expect(messages.listDreamChannels()).toEqual([])
    messages.close()
    // Every note is byte-identical to its pre-dream backup, or to a write that completed.
    const backup = await readBackupFiles(join(ws.paths.backups, `${run?.backupId}.zip`))
    for (const [path, before] of backup) {
      const now = readFileSync(join(ws.dir, path))
      if (path === 'notes/memory/user.md') expect([before.toString(), WRITTEN]).toContain(now.toString())
      else if (!path.startsWith('notes/daily/')) expect(now.equals(before)).toBe(true)
    }
    expect(readFileSync(join(ws.paths.memory, 'user.md'), 'utf8')).toBe(WRITTEN)
  }, 90_000)
})
