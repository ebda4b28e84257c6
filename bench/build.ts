// The benches that run the CLI as a user does run it from dist/: rebuilt first when any source is newer, as the
// test setup does.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

function newest(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((max, entry) => Math.max(max, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0)
}

/** Builds dist/ unless it is newer than every source; `bench` names the caller in the error. */
export function buildIfStale(bench: string): void {
  const main = join(ROOT, 'dist', 'cli', 'main.js')
  if (existsSync(main) && newest(join(ROOT, 'dist')) >= newest(join(ROOT, 'src'))) return
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
  const built = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
    stdio: 'inherit',
  })
  if (built.status !== 0) throw new Error(`${bench} bench: building dist/ failed`)
  // As `npm run build` does: what `status` loads becomes one module (scripts/bundle-status.mjs).
  const bundled = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bundle-status.mjs')], {
    stdio: 'inherit',
  })
  if (bundled.status !== 0) throw new Error(`${bench} bench: bundling dist/cli/status-deps.js failed`)
}
