import { describe, expect, it } from 'vitest'
import { readWorkspaceStatus } from '../src/read-status.js'
import { makeDreamWorld } from './helpers/dream-world.js'

describe('readWorkspaceStatus: what `dreamlane status` reads without a whole Dreamlane', () => {
  it('reports what a Dreamlane that runs no dream reports, before and after a dream, for each engine', async () => {
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
        await dreamlane.close()
        const lean = await readWorkspaceStatus({ config, env, clock: world.clock })
        expect(lean).toEqual(whole)
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
