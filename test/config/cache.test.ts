import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { CONFIG_CACHE_FILE, resolveConfigCached } from '../../src/config/cache.js'
import { resolveConfig } from '../../src/config/resolve.js'
import { ConfigError } from '../../src/errors.js'
import { defaultZoneSource } from '../../src/time/zone-source.js'
import { makeTempDir } from '../helpers/workspace.js'

/** A workspace with a data dir and `config` as its config.json. */
function workspaceWith(config: object): { cwd: string; configFile: string; cacheFile: string } {
  const cwd = makeTempDir()
  mkdirSync(join(cwd, '.dreamlane'))
  const configFile = join(cwd, '.dreamlane', 'config.json')
  writeFileSync(configFile, JSON.stringify(config))
  return { cwd, configFile, cacheFile: join(cwd, '.dreamlane', CONFIG_CACHE_FILE) }
}

/** The cache file's inode: a hit reads it, a miss replaces it (temp file + rename). */
const inodeOf = (file: string): number => statSync(file).ino

const SETTINGS = {
  backups: { keep: 3 },
  dream: { defaultDays: 5 },
  autoDream: { retryDelaysMinutes: [1, 2] },
}

describe('resolveConfigCached', () => {
  it('returns exactly what resolveConfig returns, and the same again from the cache without rewriting it', async () => {
    const { cwd, cacheFile } = workspaceWith(SETTINGS)
    const env = { TZ: 'Asia/Tokyo', DREAMLANE_MAX_TOOL_CALLS: '90' }
    const flags = { messagesDb: 'chat.db' }
    const expected = JSON.stringify(resolveConfig({ cwd, env, flags }))
    expect(JSON.stringify(await resolveConfigCached({ cwd, env, flags }))).toBe(expected)
    const inode = inodeOf(cacheFile)
    expect(JSON.stringify(await resolveConfigCached({ cwd, env, flags }))).toBe(expected)
    expect(inodeOf(cacheFile)).toBe(inode)
  })

  it('resolves again when config.json, an env var or a flag changes', async () => {
    const { cwd, configFile } = workspaceWith(SETTINGS)
    expect((await resolveConfigCached({ cwd, env: {} })).backups.keep).toBe(3)
    writeFileSync(configFile, JSON.stringify({ ...SETTINGS, backups: { keep: 4 } }))
    expect((await resolveConfigCached({ cwd, env: {} })).backups.keep).toBe(4)
    expect((await resolveConfigCached({ cwd, env: { DREAMLANE_BACKUP_KEEP: '6' } })).backups.keep).toBe(6)
    const flags = { backups: { keep: 8 } }
    expect(
      (await resolveConfigCached({ cwd, env: { DREAMLANE_BACKUP_KEEP: '6' }, flags })).backups.keep,
    ).toBe(8)
    expect((await resolveConfigCached({ cwd, env: { TZ: 'Europe/Berlin' } })).timezone).toBe('Europe/Berlin')
    expect((await resolveConfigCached({ cwd, env: { TZ: 'Asia/Tokyo' } })).timezone).toBe('Asia/Tokyo')
  })

  it.skipIf(defaultZoneSource(undefined) === undefined)(
    'never asks ICU for the system zone on a hit (its first Intl call is ~20 ms of a short command)',
    async () => {
      const { cwd } = workspaceWith(SETTINGS)
      const expected = JSON.stringify(await resolveConfigCached({ cwd, env: {} }))
      const intl = vi.spyOn(Intl, 'DateTimeFormat')
      try {
        expect(JSON.stringify(await resolveConfigCached({ cwd, env: {} }))).toBe(expected)
        expect(intl).not.toHaveBeenCalled()
        await resolveConfigCached({ cwd, env: { DREAMLANE_BACKUP_KEEP: '4' } }) // a miss asks, as before
        expect(intl).toHaveBeenCalled()
      } finally {
        intl.mockRestore()
      }
    },
  )

  it('still refuses a bad config.json on every run after a good one was cached', async () => {
    const { cwd, configFile } = workspaceWith(SETTINGS)
    await resolveConfigCached({ cwd, env: {} })
    writeFileSync(configFile, JSON.stringify({ backups: { keep: 0 } }))
    for (let i = 0; i < 2; i++) {
      const caught = await resolveConfigCached({ cwd, env: {} }).catch((error: unknown) => error)
      expect(caught).toBeInstanceOf(ConfigError)
      expect((caught as ConfigError).message).toContain('backups.keep')
    }
  })

  it('never trusts a hand-edited cache entry', async () => {
    const { cwd, cacheFile } = workspaceWith(SETTINGS)
    await resolveConfigCached({ cwd, env: {} })
    writeFileSync(cacheFile, readFileSync(cacheFile, 'utf8').replace('"keep":3', '"keep":99'))
    expect((await resolveConfigCached({ cwd, env: {} })).backups.keep).toBe(3)
    writeFileSync(cacheFile, '{"inputs":')
    expect((await resolveConfigCached({ cwd, env: {} })).backups.keep).toBe(3)
    writeFileSync(cacheFile, 'null')
    expect((await resolveConfigCached({ cwd, env: {} })).backups.keep).toBe(3)
    rmSync(cacheFile)
    mkdirSync(cacheFile)
    expect((await resolveConfigCached({ cwd, env: {} })).backups.keep).toBe(3)
  })

  it('refuses an unreadable config.json as resolveConfig does', async () => {
    const { cwd, configFile } = workspaceWith(SETTINGS)
    rmSync(configFile)
    mkdirSync(configFile)
    const caught = await resolveConfigCached({ cwd, env: {} }).catch((error: unknown) => error)
    expect(caught).toBeInstanceOf(ConfigError)
  })

  it('returns an API key from the environment but never writes it to disk', async () => {
    const { cwd, cacheFile } = workspaceWith(SETTINGS)
    const env = { DREAMLANE_OPENAI_API_KEY: 'sk-secret-123' }
    expect((await resolveConfigCached({ cwd, env })).providers.openaiCompatible.apiKey).toBe('sk-secret-123')
    const inode = inodeOf(cacheFile)
    const hit = await resolveConfigCached({ cwd, env })
    expect(inodeOf(cacheFile)).toBe(inode)
    expect(hit.providers.openaiCompatible.apiKey).toBe('sk-secret-123')
    expect(readFileSync(cacheFile, 'utf8')).not.toContain('sk-secret')
    const other = await resolveConfigCached({ cwd, env: { DREAMLANE_OPENAI_API_KEY: 'sk-other' } })
    expect(other.providers.openaiCompatible.apiKey).toBe('sk-other')
    const none = await resolveConfigCached({ cwd, env: {} })
    expect(none.providers.openaiCompatible.apiKey).toBeUndefined()
  })

  it('writes nothing where there is no data dir yet', async () => {
    const cwd = makeTempDir()
    expect((await resolveConfigCached({ cwd, env: {} })).dataDir).toBe(join(cwd, '.dreamlane'))
    expect(() => statSync(join(cwd, '.dreamlane'))).toThrow()
  })
})
