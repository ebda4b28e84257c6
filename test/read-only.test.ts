import { describe, expect, it } from 'vitest'
import { readGate, readWorkspaceStatus } from '../src/read-only.js'
import { makeDreamWorld } from './helpers/dream-world.js'

const MODES = ['auto', 'manual', 'bootstrap', 'light', 'deep', 'rem'] as const

describe('readWorkspaceStatus and readGate: what `status` and `gate` read without a whole Dreamlane', () => {
  it('report what a Dreamlane that runs no dream reports, before and after a dream, for each engine', async () => {
    const world = await makeDreamWorld()
    const envs = [{}, { ANTHROPIC_API_KEY: 'sk-test' }, { DREAMLANE_PROVIDER: 'openai-compatible' }]
    const compare = async (): Promise<void> => {
      for (const env of envs) {
        const config = {
          ...world.config,
          providers: {
            ...world.config.providers,
            openaiCompatible: {
              ...world.config.providers.openaiCompatible,
              baseUrl: 'http://127.0.0.1:9/v1',
              model: 'local-model',
            },
          },
        }
        const dreamlane = world.open({ config, env })
        const whole = await dreamlane.status()
        const gates = await Promise.all(MODES.map((mode) => dreamlane.gate(mode)))
        await dreamlane.close()
        const options = { config, env, clock: world.clock }
        expect(await readWorkspaceStatus(options)).toEqual(whole)
        for (const [i, mode] of MODES.entries()) expect(await readGate(options, mode)).toEqual(gates[i])
      }
    }
    await compare()
    const dreamlane = world.open()
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: 2 })
    await dreamlane.close()
    expect(run.status).toMatch(/succeeded|degraded/)
    await compare()
    const lean = await readWorkspaceStatus({ config: world.config, env: {}, clock: world.clock })
    expect(lean.latestRun?.id).toBe(run.id)
    expect(lean.provider).toBe('offline')
  })
})
