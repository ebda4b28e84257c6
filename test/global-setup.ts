// Builds dist/ once per test run when any source is newer, so CLI tests spawn the real shipped entry point.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { browserMode, chromiumPathOf } from './browser/browser-mode.js'
import { redisMode } from './helpers/redis-server.js'
import { unzipMode } from './helpers/unzip.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const STAMP = join(ROOT, 'dist', '.build-stamp')

function newestMtimeMs(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

export default function setup(): void {
  announceBrowserMode()
  announceRedisMode()
  announceUnzipMode()
  const stale = !existsSync(STAMP) || statSync(STAMP).mtimeMs < newestMtimeMs(join(ROOT, 'src'))
  if (!stale) return
  try {
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')],
      {
        stdio: 'inherit',
      },
    )
    // As `npm run build` does: what `status` loads becomes one module, so CLI tests run what ships.
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-status.mjs')], { stdio: 'inherit' })
    writeFileSync(STAMP, new Date().toISOString())
  } catch {
    // `npm test` typechecks first, so this only happens mid-edit: the CLI tests then fail on their own.
    console.warn('global-setup: building dist/ failed; CLI tests will run against the previous build')
  }
}

/** A skipped browser suite must be impossible to miss in the test output. */
function announceBrowserMode(): void {
  const mode = browserMode(process.env, chromiumPathOf(process.env))
  if (mode.run) return
  const line = '!'.repeat(100)
  console.warn(`\n${line}\n!! BROWSER TESTS SKIPPED: ${mode.why}\n${line}\n`)
}

/** Nor may a skipped fleet suite (no redis-server). */
function announceRedisMode(): void {
  const mode = redisMode(process.env)
  if (mode.run) return
  const line = '!'.repeat(100)
  console.warn(`\n${line}\n!! FLEET (REDIS) TESTS SKIPPED: ${mode.why}\n${line}\n`)
}

/** Nor backups checked only by our own reader (no `unzip`). */
function announceUnzipMode(): void {
  const mode = unzipMode(process.env)
  if (mode.run) return
  const line = '!'.repeat(100)
  console.warn(`\n${line}\n!! UNZIP CHECKS OF BACKUPS SKIPPED: ${mode.why}\n${line}\n`)
}
