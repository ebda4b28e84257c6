import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { plainInvocation } from '../../src/cli/plain-args.js'
import { resolveConfig } from '../../src/config/resolve.js'
import { readWorkspaceStatus } from '../../src/read-only.js'
import { runCli } from '../helpers/cli.js'
import { makeTempDir } from '../helpers/workspace.js'

const STATUS = new Set(['status'])

describe('plainInvocation', () => {
  it('reads global options before and after the command in every spelling commander takes, the last one winning', () => {
    expect(plainInvocation(['status'], STATUS)).toEqual({ command: 'status', options: {} })
    expect(
      plainInvocation(
        ['-w', 'a', '--data-dir=d', 'status', '--messages-db', 'm.db', '--tz=UTC', '--json', '-wb'],
        STATUS,
      ),
    ).toEqual({
      command: 'status',
      options: { workspace: 'b', dataDir: 'd', messagesDb: 'm.db', tz: 'UTC', json: true },
    })
    expect(plainInvocation(['--workspace', 'x', 'status', '--workspace=y'], STATUS)?.options).toEqual({
      workspace: 'y',
    })
    expect(plainInvocation(['--workspace=', 'status'], STATUS)?.options).toEqual({ workspace: '' })
  })

  it('leaves every other command line to commander', () => {
    const others = [
      [],
      ['--json'],
      ['gate'],
      ['statsu'],
      ['status', 'extra'],
      ['status', 'status'],
      ['status', '--help'],
      ['-h', 'status'],
      ['status', '-V'],
      ['--version'],
      ['--', 'status'],
      ['status', '--'],
      ['-w', 'status'],
      ['status', '-w'],
      ['-w', '-x', 'status'],
      ['-w-x', 'status'],
      ['--tz', '--json', 'status'],
      ['--json=1', 'status'],
      ['-j', 'status'],
      ['--unknown', 'status'],
      ['--workspac', 'a', 'status'],
      ['-', 'status'],
    ]
    for (const args of others) expect(plainInvocation(args, STATUS), args.join(' ')).toBeNull()
  })
})

describe('status run without commander', () => {
  it('prints what the commander path prints, as text and as JSON', async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    for (const json of [[], ['--json']]) {
      // `--` before the command makes the same run go through commander.
      const plain = await runCli(['--workspace', dir, ...json, 'status'])
      const viaCommander = await runCli(['--workspace', dir, ...json, '--', 'status'])
      expect(plain.code).toBe(0)
      expect(plain.stderr).toBe('')
      expect(plain.stdout).toContain(`workspace`)
      expect(plain).toEqual(viaCommander)
    }
    const missing = await runCli(['--workspace', `${dir}/nope`, 'status'])
    expect(missing).toEqual(await runCli(['--workspace', `${dir}/nope`, '--', 'status']))
    expect(missing.code).not.toBe(0)
    const missingJson = await runCli(['--workspace', `${dir}/nope`, '--json', 'status'])
    expect(missingJson).toEqual(await runCli(['--workspace', `${dir}/nope`, '--json', '--', 'status']))
    expect(JSON.parse(missingJson.stdout).ok).toBe(false)
  })

  it('exits cleanly when the reader of its output is already gone', async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    const bin = fileURLToPath(new URL('../../bin/dreamlane.js', import.meta.url))
    const child = spawn(process.execPath, [bin, '--workspace', dir, 'status'], {
      env: { PATH: process.env.PATH ?? '', TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.destroy() // the read end closes before the child writes: its write meets EPIPE
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })

  it('prints the local times the library computes with Intl, in a zone with DST made the process zone', async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    for (const zone of ['Europe/Berlin', 'America/Santiago', 'Asia/Calcutta']) {
      const cli = await runCli(['--workspace', dir, '--json', 'status'], { env: { TZ: zone } })
      expect(cli.code, cli.stderr).toBe(0)
      const printed = JSON.parse(cli.stdout) as Awaited<ReturnType<typeof readWorkspaceStatus>>
      const config = resolveConfig({ env: { TZ: zone }, flags: { workspace: dir } })
      const library = await readWorkspaceStatus({ config, env: {} })
      expect(printed.autoDream).toEqual(library.autoDream)
      expect(printed.sweeps).toEqual(library.sweeps)
      expect(printed.backlog).toEqual(library.backlog)
      expect(printed.autoDream.nextRunLocal).toContain(zone)
    }
  })
})
