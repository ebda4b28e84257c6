import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../../src/config/resolve.js'
import { ConfigError } from '../../src/errors.js'
import { makeTempDir } from '../helpers/workspace.js'

function withConfigFile(content: string): string {
  const dir = makeTempDir()
  mkdirSync(join(dir, '.dreamlane'))
  writeFileSync(join(dir, '.dreamlane', 'config.json'), content)
  return dir
}

describe('resolveConfig', () => {
  it('fills defaults under the workspace', () => {
    const dir = makeTempDir()
    const config = resolveConfig({ cwd: dir, env: { TZ: 'Europe/Berlin' } })
    expect(config.workspace).toBe(dir)
    expect(config.dataDir).toBe(join(dir, '.dreamlane'))
    expect(config.messagesDb).toBe(join(dir, '.dreamlane', 'messages.db'))
    expect(config.timezone).toBe('Europe/Berlin')
    expect(config.backups.keep).toBe(10)
    expect(config.search.roots).toEqual(['notes', 'skills'])
  })

  it('layers file < env < flags', () => {
    const dir = withConfigFile(JSON.stringify({ backups: { keep: 3 }, timezone: 'Asia/Tokyo' }))
    const fromFile = resolveConfig({ cwd: dir, env: {} })
    expect(fromFile.backups.keep).toBe(3)
    const fromEnv = resolveConfig({ cwd: dir, env: { DREAMLANE_BACKUP_KEEP: '5' } })
    expect(fromEnv.backups.keep).toBe(5)
    expect(fromEnv.timezone).toBe('Asia/Tokyo')
    const fromFlags = resolveConfig({
      cwd: dir,
      env: { DREAMLANE_BACKUP_KEEP: '5' },
      flags: { backups: { keep: 7 } },
    })
    expect(fromFlags.backups.keep).toBe(7)
  })

  it('takes fact freshness from the file over the RockBot defaults', () => {
    const defaults = resolveConfig({ cwd: makeTempDir(), env: {} }).memory.freshness
    expect(defaults).toEqual({ graceDays: 30, halfLifeDays: 45, floor: 0.1, reinforcementBoost: 0.1 })
    const dir = withConfigFile(JSON.stringify({ memory: { freshness: { graceDays: 7, halfLifeDays: 0 } } }))
    expect(resolveConfig({ cwd: dir, env: {} }).memory.freshness).toEqual({
      ...defaults,
      graceDays: 7,
      halfLifeDays: 0,
    })
  })

  it('lets DREAMLANE_DREAM_MODEL override the model', () => {
    const dir = makeTempDir()
    const config = resolveConfig({ cwd: dir, env: { DREAMLANE_MODEL: 'a', DREAMLANE_DREAM_MODEL: 'b' } })
    expect(config.dream.model).toBe('b')
  })

  it.each([
    ['{"backups": {"keep": 0}}', 'backups.keep', '≥ 1'],
    ['{"timezone": "Mars/Olympus"}', 'timezone', 'IANA'],
    ['{"backupz": 3}', 'backupz', 'unknown setting'],
    ['{"search": {"roots": "notes"}}', 'search.roots', 'array'],
    ['{not json', '(file)', 'not valid JSON'],
    ['{"memory": {"freshness": {"floor": 1.5}}}', 'memory.freshness.floor', '<=1'],
    ['{"memory": {"freshness": {"halfLifeDays": -1}}}', 'memory.freshness.halfLifeDays', '>=0'],
    ['{"memory": {"freshness": {"graceDayz": 10}}}', 'memory.freshness.graceDayz', 'unknown setting'],
  ])('names the key and the expectation for %s', (content, key, expected) => {
    const dir = withConfigFile(content)
    let caught: unknown
    try {
      resolveConfig({ cwd: dir, env: {} })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ConfigError)
    const issue = (caught as ConfigError).issues[0]
    expect(issue?.key).toBe(key)
    expect((caught as ConfigError).message).toContain(expected)
  })

  it('names the env var for a bad env value', () => {
    const dir = makeTempDir()
    expect(() => resolveConfig({ cwd: dir, env: { DREAMLANE_BACKUP_KEEP: 'many' } })).toThrow(
      /DREAMLANE_BACKUP_KEEP \(backups\.keep\)/,
    )
  })
})
