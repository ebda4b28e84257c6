// Info-ZIP's `unzip -t` as an independent reader of the zips we write: skipped loudly without it, never silently.
import { execFileSync } from 'node:child_process'
import { findOnPath } from './redis-server.js'

export type UnzipMode = { run: true; bin: string } | { run: false; why: string }

/**
 * A machine without `unzip` skips the tests that need it with a loud notice (test/global-setup.ts);
 * DREAMLANE_REQUIRE_UNZIP=1 (set by .ci/run, which installs it) turns a missing unzip into failures.
 */
export function unzipMode(env: Record<string, string | undefined>): UnzipMode {
  const bin = findOnPath('unzip', env.PATH ?? '')
  if (bin) return { run: true, bin }
  if (env.DREAMLANE_REQUIRE_UNZIP === '1') return { run: true, bin: 'unzip' }
  return {
    run: false,
    why:
      '`unzip` is not installed — `apt-get install -y unzip` to check backups with a standard reader; ' +
      'DREAMLANE_REQUIRE_UNZIP=1 makes a missing unzip fail',
  }
}

/** `unzip -t` of `file`: its report, or an error carrying unzip's output when any entry is bad. */
export function unzipTest(bin: string, file: string): string {
  return execFileSync(bin, ['-t', file], { encoding: 'utf8' })
}
