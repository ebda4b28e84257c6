// Whether the browser tests run: decided once from the environment and whether chromium is installed.
import { existsSync } from 'node:fs'

export type BrowserMode = { run: true } | { run: false; why: string }

/**
 * A machine without chromium skips the browser tests with a loud notice, so `npm install && npm test` passes on
 * a fresh clone; DREAMLANE_REQUIRE_BROWSER=1 (set by .ci/run) turns a missing browser into failures instead,
 * so CI never skips silently. DREAMLANE_SKIP_BROWSER=1 skips on purpose (REQUIRE wins).
 */
export function browserMode(
  env: Record<string, string | undefined>,
  chromiumPath: string,
  exists = existsSync,
): BrowserMode {
  if (env.DREAMLANE_REQUIRE_BROWSER === '1') return { run: true }
  if (env.DREAMLANE_SKIP_BROWSER === '1') return { run: false, why: 'DREAMLANE_SKIP_BROWSER=1 is set' }
  if (!exists(chromiumPath))
    return {
      run: false,
      why:
        `chromium is not installed at ${chromiumPath} — install it (\`apt-get install -y chromium\`, or point ` +
        'DREAMLANE_CHROMIUM at one) to run them; DREAMLANE_REQUIRE_BROWSER=1 makes a missing browser fail',
    }
  return { run: true }
}

export function chromiumPathOf(env: Record<string, string | undefined>): string {
  return env.DREAMLANE_CHROMIUM ?? '/usr/bin/chromium'
}
