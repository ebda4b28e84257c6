// FTS over 10k notes: our full rebuild, a no-change refresh and a stat-every-file refresh, each against a raw
// FTS5 build of the same schema and documents (read, chunk, insert; no stats, hashes or plan).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { extname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openStateDb, type StateDb } from '../src/db/state.js'
import { chunkText } from '../src/fts/chunk.js'
import { markDirty } from '../src/fts/journal.js'
import { refreshIndex } from '../src/fts/refresh.js'
import { ensureFtsSchema } from '../src/fts/schema.js'
import type { RefreshResult } from '../src/fts/types.js'
import { writeFileAtomic } from '../src/notes/atomic-write.js'
import { MEMORY_FILES, workspacePaths, type WorkspacePaths } from '../src/notes/paths.js'
import type { BenchRow } from './run.js'
import { median } from './stats.js'

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '.bench-tmp')
const WORKSPACE = join(ROOT, 'fts-10k')
/** Bump to regenerate the cached corpus. */
const CORPUS_MARKER = join(WORKSPACE, '.corpus-v2')
const FILE_COUNT = 10_000
const CONFIG = { search: { roots: ['notes', 'skills'], extensions: ['.md', '.txt'] } }

const WORDS = (
  'memory dream note daily summary project deadline postgres kayak harbour tea meeting budget invoice ' +
  'release design review garden lighthouse travel berlin tokyo family birthday doctor recipe guitar ' +
  'server backup migration schema index search query token model prompt cache lane queue window ' +
  'alice bob carol dave erin frank grace heidi ivan judy mallory niaj olivia peggy rupert sybil'
).split(' ')

export async function run(): Promise<BenchRow[]> {
  ensureCorpus()
  const paths = workspacePaths({ workspace: WORKSPACE, dataDir: join(ROOT, 'fts-state'), messagesDb: '' })
  const refresh = (state: StateDb, full = false): Promise<RefreshResult> =>
    refreshIndex({ state, paths, config: CONFIG, full })
  const raws: number[] = []
  let rawChunks = 0
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    rawChunks = rawBuild(join(ROOT, 'fts-raw'))
    raws.push(performance.now() - started)
  }
  const rebuilds: number[] = []
  let state: StateDb | undefined
  for (let i = 0; i < 3; i++) {
    state?.close()
    rmSync(paths.dataDir, { recursive: true, force: true })
    const fresh = openStateDb(paths.stateDb)
    rebuilds.push(await timed(() => refresh(fresh), 'added', FILE_COUNT))
    state = fresh
  }
  if (!state) throw new Error('no rebuild ran')
  const db = state
  const chunks = (db.prepare('SELECT count(*) AS n FROM fts_chunks').get() as { n: number }).n
  if (chunks !== rawChunks) throw new Error(`rebuild has ${chunks} chunks, the raw build ${rawChunks}`)
  await refresh(db) // settles racy rows left by the rebuild, if any
  const noChange: number[] = []
  for (let i = 0; i < 15; i++) noChange.push(await timed(() => refresh(db), 'filesRead', 0))
  const statAll: number[] = []
  for (let i = 0; i < 5; i++) statAll.push(await timed(() => refresh(db, true), 'filesRead', 0))
  const dreamSized = await measureDreamSizedChange(db, paths)
  db.close()
  const raw = median(raws)
  return [
    row(
      'FTS full rebuild',
      median(rebuilds),
      raw,
      `refreshIndex on an empty state.db; ${chunks} chunks`,
      '≤ 1.3',
    ),
    row('no-change FTS refresh', median(noChange), raw, 'journal + dir stats + 1/64 sweep', '≤ 0.02'),
    row('stat-every-file refresh (full: true)', median(statAll), raw, 'the naive way, for context'),
    row('refresh after a dream-sized change', dreamSized, raw, '20 notes written + markDirty'),
  ]
}

function row(name: string, measuredMs: number, rawMs: number, how: string, target?: string): BenchRow {
  const ratio = measuredMs / rawMs
  return {
    name,
    subject: `${FILE_COUNT} files under notes/ and skills/`,
    baseline: `raw FTS5 build ${rawMs.toFixed(0)} ms`,
    measured: `${measuredMs.toFixed(1)} ms`,
    ratio,
    ...(target && { target }),
    notes: `${(ratio * 100).toFixed(2)}% of a raw build; ${how}`,
  }
}

/**
 * The floor a rebuild is measured against: the same tables (FTS_MIGRATIONS) filled with the same chunks of the
 * same files, in one transaction, the plainest way: read, chunk, insert. Returns how many chunks it indexed.
 */
function rawBuild(dataDir: string): number {
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  const state = openStateDb(join(dataDir, 'state.db'))
  ensureFtsSchema(state)
  const addFile = state.prepare(
    `INSERT INTO fts_files (path, dir, size, mtime_ms, ctime_ms, ino, hash, checked_at_ms)
     VALUES (?, ?, 0, 0, 0, 0, '', 0)`,
  )
  const addChunk = state.prepare('INSERT INTO fts_chunks (file_id, start_line, body) VALUES (?, ?, ?)')
  const addWords = state.prepare('INSERT INTO fts_text (rowid, body) VALUES (?, ?)')
  const addTrigrams = state.prepare('INSERT INTO fts_trigram (rowid, body) VALUES (?, ?)')
  let chunks = 0
  state.transaction(() => {
    for (const root of CONFIG.search.roots) {
      for (const entry of readdirSync(join(WORKSPACE, root), { withFileTypes: true, recursive: true })) {
        if (!entry.isFile() || !CONFIG.search.extensions.includes(extname(entry.name))) continue
        const file = join(entry.parentPath, entry.name)
        const path = relative(WORKSPACE, file)
        const fileId = addFile.run(path, relative(WORKSPACE, entry.parentPath)).lastInsertRowid
        for (const chunk of chunkText(readFileSync(file, 'utf8'))) {
          const id = addChunk.run(fileId, chunk.startLine, chunk.body).lastInsertRowid
          addWords.run(id, chunk.body)
          addTrigrams.run(id, chunk.body)
          chunks++
        }
      }
    }
  })()
  state.close()
  return chunks
}

/** Times `task` and checks one field of its result, so a broken refresh can never produce a good figure. */
async function timed(
  task: () => Promise<RefreshResult>,
  field: keyof RefreshResult,
  expected: number,
): Promise<number> {
  const started = performance.now()
  const result = await task()
  const elapsed = performance.now() - started
  if (result[field] !== expected) {
    throw new Error(`expected ${field} ${expected}, got ${JSON.stringify(result)}`)
  }
  return elapsed
}

async function measureDreamSizedChange(state: StateDb, paths: WorkspacePaths): Promise<number> {
  const days = join(WORKSPACE, 'notes', 'memory', 'days')
  const written = Array.from({ length: 20 }, (_, i) => join(days, `bench-${i}.md`))
  for (const [i, file] of written.entries()) {
    await writeFileAtomic(file, `# Bench\n${sentence(makeRandom(i), 60)}\n`)
  }
  markDirty(state, WORKSPACE, written)
  const elapsed = await timed(() => refreshIndex({ state, paths, config: CONFIG }), 'added', written.length)
  for (const file of written) rmSync(file)
  await refreshIndex({ state, paths, config: CONFIG })
  return elapsed
}

/** 10k deterministic markdown notes in a realistic layout, generated once and cached under .bench-tmp/. */
function ensureCorpus(): void {
  if (existsSync(CORPUS_MARKER)) return
  rmSync(WORKSPACE, { recursive: true, force: true })
  const random = makeRandom(42)
  const files: string[] = []
  for (let day = 0; day < 3650; day++) {
    const date = new Date(Date.UTC(2016, 0, 1) + day * 86_400_000).toISOString().slice(0, 10)
    files.push(`notes/daily/${date}.md`)
  }
  for (let i = 0; i < 1000; i++) files.push(`notes/memory/days/page-${String(i).padStart(4, '0')}.md`)
  for (const name of MEMORY_FILES) files.push(`notes/memory/${name}`)
  for (let i = 0; files.length < FILE_COUNT - 1343; i++) files.push(`notes/topics/t${i % 100}/note-${i}.md`)
  for (let i = 0; files.length < FILE_COUNT; i++) {
    files.push(`skills/s${i % 50}/doc-${i}.${i % 7 ? 'md' : 'txt'}`)
  }
  for (const file of files) {
    const full = join(WORKSPACE, file)
    mkdirSync(join(full, '..'), { recursive: true })
    const sections = 1 + Math.floor(random() * 4)
    const body = Array.from(
      { length: sections },
      () => `## ${sentence(random, 3)}\n\n${sentence(random, 60 + random() * 200)}\n`,
    )
    writeFileSync(full, `# ${file}\n\n${body.join('\n')}`)
  }
  ageTree(WORKSPACE, new Date(Date.now() - 3_600_000))
  writeFileSync(CORPUS_MARKER, `${files.length}\n`)
}

function sentence(random: () => number, words: number): string {
  return Array.from({ length: Math.round(words) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')
}

/** A tiny seeded PRNG (mulberry32), so the corpus is the same on every machine. */
function makeRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Files and dirs older than the racy window, as a long-lived workspace's would be. */
function ageTree(dir: string, when: Date): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) ageTree(full, when)
    else utimesSync(full, when, when)
  }
  utimesSync(dir, when, when)
}
