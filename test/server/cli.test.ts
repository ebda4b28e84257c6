// `dreamlane serve` starts the web server and prints its URL; `dreamlane chat` is a REPL on the same host.
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import { initWorkspace } from '../../src/notes/init-workspace.js'
import { runCli } from '../helpers/cli.js'
import { makeMessagesDb, makeWorkspace } from '../helpers/workspace.js'
import { USER_MD, waitFor } from './world.js'

const BIN = fileURLToPath(new URL('../../bin/dreamlane.js', import.meta.url))
const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC' }

async function workspace() {
  const ws = makeWorkspace()
  await initWorkspace(ws.paths)
  writeFileSync(join(ws.paths.memory, 'user.md'), USER_MD)
  makeMessagesDb(ws.paths, [
    { chatJid: 'web:main', content: 'hello', timestamp: new Date(Date.now() - 3_600_000).toISOString() },
  ]).close()
  return ws
}

describe('dreamlane serve (HTTP)', () => {
  it('prints the URL, answers the API there, and stops on SIGTERM', async () => {
    const ws = await workspace()
    const child = spawn(process.execPath, [BIN, '--workspace', ws.dir, 'serve', '--port', '0'], { env: ENV })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL')
    })
    const url = await waitFor(
      () => /web page and API: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1],
      `the URL in:\n${out}`,
      20_000,
    )
    const status = (await (await fetch(`${url}api/status`)).json()) as { provider: string; workspace: string }
    expect(status).toMatchObject({ provider: 'offline', workspace: ws.dir })
    const sent = await fetch(`${url}api/chats/web:main/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"tea?"}',
    })
    expect(((await sent.json()) as { reply: { content: string } }).reply.content).toContain(
      'notes/memory/user.md:4 — Prefers green tea over coffee.',
    )
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  }, 40_000)

  it('refuses a public address without a token before touching the workspace', async () => {
    const ws = await workspace()
    const result = await runCli(['--workspace', ws.dir, 'serve', '--host', '0.0.0.0'], { timeoutMs: 20_000 })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('pass --token')
    expect(existsSync(ws.paths.stateDb)).toBe(false)
  }, 30_000)
})

describe('dreamlane chat', () => {
  it('answers piped lines from memory and runs /dream, waiting for it before exiting', async () => {
    const ws = await workspace()
    const child = spawn(process.execPath, [BIN, '--workspace', ws.dir, 'chat', '--jid', 'cli:test'], {
      env: ENV,
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stdin.end('Which tea?\n/dream 2\n')
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(0)
    expect(stdout).toContain(
      'assistant › From my notes (searched for “tea”):\n• notes/memory/user.md:4 — Prefers green tea over coffee.',
    )
    expect(stdout).toContain('dream › Dream queued in the background for the last 2 day(s).')
    expect(stdout).toMatch(/dream › Dream finished \(manual, last 2 day\(s\)/)
  }, 40_000)
})
