// `npm run demo` builds dist/ only when a source file is newer than the last build, and says which it did.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
// The same stamp test/global-setup.ts writes, so either build counts for both.
const STAMP = join(ROOT, 'dist', '.build-stamp')

function newestMtimeMs(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

const inputs = Math.max(newestMtimeMs(join(ROOT, 'src')), statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs)
if (existsSync(STAMP) && statSync(STAMP).mtimeMs >= inputs) {
  console.error('dist/ is up to date (no source changed since the last build); skipping the build')
} else {
  console.error('building dist/ with tsc (src/ changed since the last build; this takes up to a minute)…')
  const started = Date.now()
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')],
    { stdio: 'inherit' },
  )
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-status.mjs')], { stdio: 'inherit' })
  writeFileSync(STAMP, new Date().toISOString())
  console.error(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
