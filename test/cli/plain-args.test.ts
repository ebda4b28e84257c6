import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
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

describe('plainInvocation of a two-word command', () => {
  const COMMANDS = new Set(['status', 'backups create'])

  it('takes the words in order with global options before, between and after them', () => {
    for (const args of [
      ['-w', 'a', 'backups', 'create'],
      ['backups', '-w', 'a', 'create'],
      ['backups', 'create', '--workspace=a'],
    ]) {
      expect(plainInvocation(args, COMMANDS), args.join(' ')).toEqual({
        command: 'backups create',
        options: { workspace: 'a' },
      })
    }
  })

  it('leaves backups list, restore, help and other word orders to commander', () => {
    const others = [
      ['backups'],
      ['create'],
      ['create', 'backups'],
      ['backups', 'list'],
      ['backups', 'restore', 'x'],
      ['backups', 'create', 'x'],
      ['backups', 'create', '--help'],
      ['backups', '--', 'create'],
      ['backups', 'status'],
    ]
    for (const args of others) expect(plainInvocation(args, COMMANDS), args.join(' ')).toBeNull()
  })
})

describe('backups create run without commander', () => {
  /** A run's own id, time and size made neutral (the manifest holds the time), so two runs can be compared. */
  const neutral = (text: string): string =>
    text
      .replace(/\d{8}T\d{6}Z(\.\d+)?-manual-cli/g, '<id>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z/g, '<time>')
      .replace(/"bytes": \d+|\d+\.\d KB/g, '<size>')

  it('prints what the commander path prints, as text and as JSON, and writes a backup each time', async () => {
    const dir = makeTempDir()
    expect((await runCli(['--workspace', dir, 'init'])).code).toBe(0)
    for (const json of [[], ['--json']]) {
      const plain = await runCli(['--workspace', dir, ...json, 'backups', 'create'])
      const viaCommander = await runCli(['--workspace', dir, ...json, '--', 'backups', 'create'])
      expect(plain.code, plain.stderr).toBe(0)
      expect(plain.stderr).toBe(json.length ? '' : 'writing backup…\n')
      expect(plain.stdout).toMatch(/manual-cli/)
      expect({ ...plain, stdout: neutral(plain.stdout) }).toEqual({
        ...viaCommander,
        stdout: neutral(viaCommander.stdout),
      })
    }
    const listed = JSON.parse((await runCli(['--workspace', dir, '--json', 'backups', 'list'])).stdout) as {
      bytes: number
    }[]
    expect(listed).toHaveLength(4)
    // An unusable backups folder: the same error and exit code either way (the traces' frames differ).
    const dataDir = makeTempDir()
    writeFileSync(join(dataDir, 'backups'), 'not a folder')
    const failing = ['--workspace', dir, '--data-dir', dataDir]
    const plainFailure = await runCli([...failing, 'backups', 'create'])
    const commanderFailure = await runCli([...failing, '--', 'backups', 'create'])
    const firstLines = (text: string): string => text.split('\n').slice(0, 3).join('\n')
    expect(plainFailure.code).not.toBe(0)
    expect(plainFailure.code).toBe(commanderFailure.code)
    expect(plainFailure.stderr).toContain('EEXIST')
    expect(firstLines(plainFailure.stderr)).toBe(firstLines(commanderFailure.stderr))
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
