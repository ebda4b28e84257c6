// After tsc: dist/cli/status-deps.js and the ~40 modules under it (what `dreamlane status` reads and prints)
// become one file. Node 20's ESM loader spends about half a millisecond resolving, reading and linking each
// module, which was a third of a `status` run. The modules the CLI has loaded before this one (or whose classes
// must stay one, errors.js) are imported, not copied. Without esbuild the build keeps tsc's modules as they are.
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = join(ROOT, 'dist')
const ENTRY = join(DIST, 'cli', 'status-deps.js')
// The entry is read from src/ (its re-exports resolved against dist/), never from dist/, which after a first
// run holds the bundle itself: bundling that again would keep the old copies of its modules.
/** dist/ files kept as modules of their own: loaded by the CLI before status-deps, or holding shared classes. */
const SHARED = new Set([
  'errors.js',
  'notes/paths.js',
  'time/local-day.js',
  'config/layers.js',
  'config/cache.js',
  'config/digest.js',
  'cli/std-streams.js',
  'cli/context.js',
])

let esbuild
try {
  esbuild = await import('esbuild')
} catch {
  console.warn('bundle-status: esbuild is not installed; dist/cli/status-deps.js stays unbundled')
  process.exit(0)
}

const keepShared = {
  name: 'keep-shared',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const file = resolve(args.resolveDir, args.path)
      if (!SHARED.has(relative(DIST, file).split(sep).join('/'))) return undefined
      const path = relative(dirname(ENTRY), file).split(sep).join('/')
      return { path: path.startsWith('.') ? path : `./${path}`, external: true }
    })
  },
}

const result = await esbuild.build({
  stdin: {
    contents: readFileSync(join(ROOT, 'src', 'cli', 'status-deps.ts'), 'utf8'),
    loader: 'ts',
    resolveDir: dirname(ENTRY),
    sourcefile: 'status-deps.ts',
  },
  outfile: ENTRY,
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  plugins: [keepShared],
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
})
// Only the shared modules, Node's builtins and croner may stay static imports (better-sqlite3 is required): another
// package here would load at every `status` (esbuild hoists a lazily imported module's package imports to the top).
const [, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('.js')) ?? []
const unexpected = (output?.imports ?? [])
  .filter((entry) => entry.kind === 'import-statement')
  .map((entry) => entry.path)
  .filter((path) => !path.startsWith('node:') && !path.startsWith('.') && path !== 'croner')
if (unexpected.length > 0) {
  console.error(`bundle-status: the bundle would import ${unexpected.join(', ')} at every start`)
  process.exit(1)
}
