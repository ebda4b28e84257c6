import { describe, expect, it } from 'vitest'
import { browserMode } from './browser-mode.js'

const installed = () => true
const missing = () => false

describe('browserMode', () => {
  it.each([
    ['chromium installed', {}, installed, true],
    ['chromium missing: skipped (global-setup says so loudly)', {}, missing, false],
    [
      'chromium missing under CI (DREAMLANE_REQUIRE_BROWSER=1): run, and fail',
      { DREAMLANE_REQUIRE_BROWSER: '1' },
      missing,
      true,
    ],
    ['explicit opt-out', { DREAMLANE_SKIP_BROWSER: '1' }, installed, false],
    [
      'CI wins over an opt-out',
      { DREAMLANE_SKIP_BROWSER: '1', DREAMLANE_REQUIRE_BROWSER: '1' },
      installed,
      true,
    ],
  ] as const)('%s', (_name, env, exists, runs) => {
    expect(browserMode(env, '/usr/bin/chromium', exists).run).toBe(runs)
  })

  it('names the missing path and how to fix it', () => {
    const mode = browserMode({}, '/nowhere/chromium', missing)
    expect(mode).toMatchObject({
      run: false,
      why: expect.stringMatching(/\/nowhere\/chromium.*apt-get install/),
    })
  })
})
