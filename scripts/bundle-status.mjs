// After tsc: dist/cli/status-deps.js and the ~40 modules under it (what `dreamlane status` reads and prints)
// become one file, and so do dist/cli/backup-create-deps.js, the backup modules and archiver's package tree (what
// `dreamlane backups create` runs). Node 20's ESM loader spends about half a millisecond resolving, reading and linking each
// module, which was a third of a `status` run. The modules the CLI has loaded before this one (or whose classes
// must stay one, errors.js) are imported, not copied. Without esbuild the build keeps tsc's modules as they are.
import { readFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = join(ROOT, 'dist')
// The entry is read from src/ (its re-exports resolved against dist/), never from dist/, which after a first
// run holds the bundle itself: bundling that again would keep the old copies of its modules.
/** dist/ files kept as modules of their own: loaded by the CLI before either entry, or holding shared classes. */
const SHARED = new Set([
  'errors.js',
  'notes/paths.js',
  'time/local-day.js',
  'config/layers.js',
  'config/cache.js',
  'config/digest.js',
  'cli/std-streams.js',
  'cli/context.js',
  // Started before the backup bundle loads (commands/backups.ts): the bundle must share its idle threads.
  'backup/pack-thread.js',
  'backup/pack-worker.js',
])

let esbuild
try {
  esbuild = await import('esbuild')
} catch {
  console.warn('bundle-status: esbuild is not installed; dist/cli/status-deps.js stays unbundled')
  process.exit(0)
}

/**
 * Each bundle: its entry under src/cli/, and the packages it copies in. Any other package stays an import; only
 * croner may (better-sqlite3 is required): another would load at every run, since esbuild hoists a lazily
 * imported module's package imports to the top. `builtins` maps a package to the Node module used in its place.
 */
const BUNDLES = [
  { name: 'status-deps', inline: () => false, banner: '', stubs: {}, builtins: {} },
  // archiver is ESM over CommonJS packages (readable-stream, zip-stream, …): all of them become part of the file.
  {
    name: 'backup-create-deps',
    inline: (path, importer) => path === 'archiver' || importer.includes(NODE_MODULES),
    // The CommonJS packages copied in call require() for Node's builtins, which an ES module lacks.
    banner:
      "import { createRequire as __dreamlaneRequire } from 'node:module';\n" +
      'const require = __dreamlaneRequire(import.meta.url);',
    stubs: archiverStubs(),
    // archiver's packages take only Transform and PassThrough from readable-stream, the npm copy of Node's own
    // streams (v4: Node 18's): Node's, already loaded, stand in. Its ~215 KB with its shims were over half the
    // bundle and ~7 ms of each run's loading; the archive's bytes are the same.
    builtins: { 'readable-stream': 'node:stream' },
  },
]
const NODE_MODULES = `${sep}node_modules${sep}`

/**
 * archiver's packages that only its tar format and its file/glob/directory entries use, which a backup never
 * does (it appends buffers and streams to a zip): each becomes a stub that throws if ever called. Loading them
 * was ~10 ms of each `backups create` (tar-stream, readdir-glob with minimatch, lazystream: a third of the
 * bundle's text).
 */
function archiverStubs() {
  const unused = (what) => `function unused() { throw new Error('${what} is not part of the backup bundle') }`
  return {
    'tar-stream': `${unused('tar-stream')}\nmodule.exports = { pack: unused, extract: unused }`,
    'readdir-glob': `${unused('readdir-glob')}\nunused.ReaddirGlob = class { constructor() { unused() } }\nmodule.exports = unused`,
    lazystream: `${unused('lazystream')}\nexports.Readable = class { constructor() { unused() } }`,
  }
}

for (const bundle of BUNDLES) await build(bundle)

async function build({ name, inline, banner, stubs, builtins }) {
  const entry = join(DIST, 'cli', `${name}.js`)
  const keepShared = {
    name: 'keep-shared',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.importer.includes(NODE_MODULES)) return undefined
        const file = resolve(args.resolveDir, args.path)
        if (!SHARED.has(relative(DIST, file).split(sep).join('/'))) return undefined
        const path = relative(dirname(entry), file).split(sep).join('/')
        return { path: path.startsWith('.') ? path : `./${path}`, external: true }
      })
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path in stubs ? { path: args.path, namespace: 'stub' } : undefined,
      )
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path in builtins ? { path: builtins[args.path], external: true } : undefined,
      )
      build.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({
        contents: stubs[args.path],
        loader: 'js',
      }))
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        isBuiltin(args.path) || inline(args.path, args.importer) ? undefined : { external: true },
      )
    },
  }
  const result = await esbuild.build({
    stdin: {
      contents: readFileSync(join(ROOT, 'src', 'cli', `${name}.ts`), 'utf8'),
      loader: 'ts',
      resolveDir: dirname(entry),
      sourcefile: `${name}.ts`,
    },
    outfile: entry,
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [keepShared],
    banner: { js: banner },
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  })
  const [, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('.js')) ?? []
  const unexpected = (output?.imports ?? [])
    .filter((entry) => entry.kind === 'import-statement')
    .map((entry) => entry.path)
    .filter((path) => !isBuiltin(path) && !path.startsWith('.') && path !== 'croner')
  if (unexpected.length > 0) {
    console.error(`bundle-status: the ${name} bundle would import ${unexpected.join(', ')} at every start`)
    process.exit(1)
  }
}
