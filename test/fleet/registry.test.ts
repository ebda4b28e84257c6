// The fleet registry: listed workspaces and globs, each with its own config; every bad entry named at once.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { fleetWorkspace, loadFleetRegistry } from '../../src/fleet/registry.js'
import { makeTempDir } from '../helpers/workspace.js'

/** A fleet dir holding `fleet.json` and the given workspaces (name → their .dreamlane/config.json, or null). */
function makeFleet(registry: unknown, workspaces: Record<string, object | null> = {}): string {
  const dir = makeTempDir()
  for (const [name, config] of Object.entries(workspaces)) {
    mkdirSync(join(dir, name, '.dreamlane'), { recursive: true })
    if (config) writeFileSync(join(dir, name, '.dreamlane', 'config.json'), JSON.stringify(config))
  }
  const file = join(dir, 'fleet.json')
  writeFileSync(file, typeof registry === 'string' ? registry : JSON.stringify(registry))
  return file
}

function issuesOf(file: string): { key: string; message: string }[] {
  try {
    loadFleetRegistry(file, {})
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues]
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('loadFleetRegistry', () => {
  it('resolves listed and globbed workspaces, each with its own config and zone', () => {
    const file = makeFleet(
      {
        workspaces: [{ id: 'main', workspace: 'home/assistant' }],
        globs: ['tenants/*'],
        redis: 'redis://127.0.0.1:6380',
        rateLimit: { requests: 40 },
      },
      {
        'home/assistant': { timezone: 'Europe/Berlin' },
        'tenants/alice': { timezone: 'Pacific/Auckland', autoDream: { cron: '30 3 * * *' } },
        'tenants/bob': null,
        'tenants/.hidden': null,
      },
    )
    const registry = loadFleetRegistry(file, { TZ: 'UTC' })
    expect(registry.workspaces.map((w) => [w.id, w.config.timezone, w.config.autoDream.cron])).toEqual([
      ['main', 'Europe/Berlin', '0 1 * * *'],
      ['alice', 'Pacific/Auckland', '30 3 * * *'],
      ['bob', 'UTC', '0 1 * * *'],
    ])
    expect(registry.redisUrl).toBe('redis://127.0.0.1:6380')
    expect(registry.rateLimit).toEqual({ requests: 40, perSeconds: 60 })
    expect(fleetWorkspace(registry, 'bob').config.workspace).toBe(join(file, '..', 'tenants', 'bob'))
    expect(() => fleetWorkspace(registry, 'carol')).toThrow(/no workspace "carol".*main, alice, bob/)
  })

  it('lists every bad entry at once: ids, clashes, missing dirs and a workspace config of its own', () => {
    const file = makeFleet(
      {
        workspaces: [
          { id: 'bad id!', workspace: 'a' },
          { id: 'a', workspace: 'a' },
          { id: 'a', workspace: 'b' },
          { workspace: 'missing' },
          { workspace: 'broken' },
        ],
      },
      { a: null, b: null, broken: { timezone: 'Mars/Olympus', dream: { days: 3 } } },
    )
    const issues = issuesOf(file)
    expect(issues.map((issue) => issue.key)).toEqual(['workspaces.0.id'])
    // A schema error stops before the entries are looked at; fix it and the rest show up together.
    const fixed = makeFleet(
      {
        workspaces: [
          { id: 'a', workspace: 'a' },
          { id: 'a', workspace: 'b' },
          { workspace: 'missing' },
          { workspace: 'broken' },
        ],
      },
      { a: null, b: null, broken: { timezone: 'Mars/Olympus', dream: { days: 3 } } },
    )
    expect(issuesOf(fixed)).toEqual([
      { key: 'workspaces.1', message: 'workspace id "a" is also used by workspaces.0' },
      { key: 'workspaces.2', message: expect.stringMatching(/missing does not exist/) },
      { key: 'workspaces.3 → timezone', message: expect.stringMatching(/IANA time zone/) },
      { key: 'workspaces.3 → dream.days', message: expect.stringMatching(/unknown setting/) },
    ])
  })

  it.each([
    ['not JSON', '{ "workspaces": [', /not valid JSON/],
    ['an unknown key', { workspace: [] }, /workspace: unknown|Unrecognized key/],
    ['a non-redis URL', { workspaces: [], redis: 'http://x' }, /redis:\/\/ or rediss:\/\//],
    ['no workspace at all', { globs: ['nothing/*'] }, /lists no workspace/],
    [
      'a rate limit with neither requests nor tokens',
      { globs: [], rateLimit: { perSeconds: 60 } },
      /`requests`, `tokens` or both/,
    ],
  ])('refuses %s with a clear message', (_name, registry, message) => {
    expect(() => loadFleetRegistry(makeFleet(registry), {})).toThrow(message)
  })

  it('says where it looked when the registry file is missing', () => {
    expect(() => loadFleetRegistry(join(makeTempDir(), 'fleet.json'), {})).toThrow(
      /fleet registry not found at/,
    )
  })
})
