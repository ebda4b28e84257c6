// `dreamlane dream` on each real provider whose third model request outlasts providers.*.requestTimeoutMs: the
// printed steps and `runs show` say the model turn failed, with the requests, tokens and tool calls it made.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { initWorkspace } from '../../src/notes/init-workspace.js'
import { runCli } from '../helpers/cli.js'
import { slowed } from '../helpers/fake-anthropic.js'
import { FAKE_APIS } from '../helpers/fake-model-api.js'
import { makeMessagesDb, makeWorkspace } from '../helpers/workspace.js'

const readUser = { name: 'read_file', input: { path: 'notes/memory/user.md' } }
const listDaily = { name: 'list_files', input: { path: 'notes/daily' } }
const FIRST = { fresh: 1200, output: 40 }
const SECOND = { fresh: 150, output: 25 }
const REQUEST = { requestTimeoutMs: 400, maxRetries: 0 }

describe.each(FAKE_APIS)('dreamlane dream: a model request past requestTimeoutMs ($name)', (api) => {
  it('prints the model turn as failed, with what it used, and runs show keeps it', async () => {
    const ws = makeWorkspace()
    await initWorkspace(ws.paths)
    const today = new Date().toISOString().slice(0, 10)
    makeMessagesDb(ws.paths, [
      {
        chatJid: 'web:main',
        content: 'We decided to ship Atlas on Friday.',
        timestamp: `${today}T00:00:01Z`,
      },
    ]).close()
    writeFileSync(
      join(ws.config.dataDir, 'config.json'),
      JSON.stringify({ providers: { anthropic: REQUEST, openaiCompatible: REQUEST } }),
    )
    const server = await api.start([
      api.tools([readUser, listDaily], FIRST),
      api.tools([readUser], SECOND),
      slowed(api.text('too late'), { delayMs: 3_000 }),
    ])
    onTestFinished(() => server.close())
    const at = ['--workspace', ws.dir]

    const dream = await runCli([...at, 'dream', '--days', '1'], { env: api.envFor(server) })
    expect(dream.code).toBe(0)
    expect(server.requests).toHaveLength(3)
    const used = `3 tool call(s), ${api.usageOf([FIRST, SECOND]).inputTokens} fresh input`
    const modelLine = dream.stderr.split('\n').find((line) => line.includes('model turn'))
    expect(modelLine).toMatch(/^ {2}✗ model turn /)
    expect(modelLine).toContain('the request timed out after 400 ms (requestTimeoutMs)')
    expect(modelLine).toContain(used)
    expect(modelLine).toMatch(/ in 2 request\(s\)$/)
    expect(dream.stderr).toMatch(/✓ offline fallback/)
    expect(dream.stdout).toMatch(/Dream finished degraded/)

    const [latest] = JSON.parse((await runCli([...at, '--json', 'runs'])).stdout) as { id: string }[]
    const shown = await runCli([...at, 'runs', 'show', latest!.id])
    expect(shown.stdout).toMatch(/✗ model +\d+ ms {2}the .* provider failed: .*timed out after 400 ms/)
    expect(shown.stdout).toContain(`usage: ${api.usageOf([FIRST, SECOND]).inputTokens} fresh input`)
    expect(shown.stdout).toMatch(/output tokens in 2 request\(s\)/)
  }, 60_000)
})
