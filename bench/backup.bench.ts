// Backup speed: createBackup (tuned archiver) and archiver with defaults, each against `zip -r` on the same notes tree.
import { execFileSync, spawnSync } from 'node:child_process'
import { createWriteStream, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { ZipArchive } from 'archiver'
import { createBackup } from '../src/backup/create.js'
import { DEFAULT_ZIP_TUNING, type ZipTuning } from '../src/backup/write-zip.js'
import { systemClock } from '../src/clock.js'
import { workspacePaths, MEMORY_FILES, type WorkspacePaths } from '../src/notes/paths.js'
import type { BenchRow } from './run.js'

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '.bench-tmp', 'backup')
const DAILY_NOTES = 2000
const DAY_PAGES = 120
const RUNS = 5

export async function run(): Promise<BenchRow[]> {
  const paths = makeTree()
  if (!hasZip()) {
    console.log('\n  backup: `zip` not found on PATH — skipping the backup-vs-zip rows')
    return []
  }
  const zipOut = join(ROOT, 'zip-r.zip')
  const defaultsOut = join(ROOT, 'archiver-defaults.zip')
  const timeZip = async (): Promise<void> => {
    rmSync(zipOut, { force: true }) // zip -r would otherwise update the existing archive
    execFileSync('zip', ['-qr', zipOut, 'notes/daily', 'notes/memory'], { cwd: paths.workspace })
  }
  const tuned = async (tuning: ZipTuning): Promise<number> =>
    (await createBackup({ paths, mode: 'bench', chatJid: 'bench', clock: systemClock, keep: 2, tuning })).bytes
  const deflateAll = { ...DEFAULT_ZIP_TUNING, storeBelowBytes: 0 }

  const medians = await measure({
    zip: timeZip,
    defaults: () => zipWithArchiverDefaults(paths, defaultsOut),
    tuned: () => tuned(DEFAULT_ZIP_TUNING),
    deflateAll: () => tuned(deflateAll),
  })
  const sizes = {
    zip: statSync(zipOut).size,
    defaults: statSync(defaultsOut).size,
    tuned: await tuned(DEFAULT_ZIP_TUNING),
    deflateAll: await tuned(deflateAll),
  }
  const subject = `${DAILY_NOTES} daily notes (1–6 KB) + ${MEMORY_FILES.length} memory files + ${DAY_PAGES} day pages, ${mib(treeBytes(paths))} MiB`
  const vsZip = (name: keyof typeof medians, label: string, notes: string, target?: string): BenchRow => ({
    name: `backup: ${label}`,
    subject,
    baseline: `zip -r ${ms(medians.zip)} (${mib(sizes.zip)} MiB)`,
    measured: `${ms(medians[name])} (${mib(sizes[name])} MiB)`,
    ratio: medians[name] / medians.zip,
    ...(target ? { target } : {}),
    notes,
  })
  return [
    vsZip('tuned', 'createBackup, tuned archiver', `store < ${DEFAULT_ZIP_TUNING.storeBelowBytes} B, deflate level ${DEFAULT_ZIP_TUNING.level} above; read-ahead ${DEFAULT_ZIP_TUNING.readAhead}; hashed while read; includes fsync + prune`, '≤ 2×'),
    vsZip('deflateAll', 'createBackup, deflating every file', 'same pipeline with storeBelowBytes 0: the per-entry zlib cost'),
    vsZip('defaults', 'archiver with defaults', 'new ZipArchive() + directory() for both roots; no hashing, no manifest'),
  ]
}

/** What the naive version does: archiver's own directory walk, default settings, no manifest. */
async function zipWithArchiverDefaults(paths: WorkspacePaths, out: string): Promise<void> {
  const archive = new ZipArchive()
  const done = pipeline(archive, createWriteStream(out))
  archive.directory(paths.daily, 'notes/daily')
  archive.directory(paths.memory, 'notes/memory')
  await Promise.all([archive.finalize(), done])
}

/** One warm-up each, then RUNS interleaved rounds (so drift hits every contender alike); medians in ms. */
async function measure<K extends string>(contenders: Record<K, () => Promise<unknown>>): Promise<Record<K, number>> {
  const names = Object.keys(contenders) as K[]
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>
  for (const name of names) await contenders[name]()
  for (let round = 0; round < RUNS; round++) {
    for (const name of names) {
      const started = performance.now()
      await contenders[name]()
      times[name].push(performance.now() - started)
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(times[name])])) as Record<K, number>
}

/** A deterministic notes tree shaped like dreamlane's: front matter, cues, summaries, memory files. */
function makeTree(): WorkspacePaths {
  rmSync(ROOT, { recursive: true, force: true })
  const workspace = join(ROOT, 'workspace')
  const paths = workspacePaths({ workspace, dataDir: join(ROOT, 'data'), messagesDb: join(ROOT, 'data', 'messages.db') })
  mkdirSync(paths.daily, { recursive: true })
  mkdirSync(paths.days, { recursive: true })
  const random = seededRandom(20261121)
  const start = Date.UTC(2021, 0, 1)
  for (let i = 0; i < DAILY_NOTES; i++) {
    const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10)
    writeFileSync(join(paths.daily, `${day}.md`), dailyNote(day, 1024 + Math.floor(random() * 5 * 1024), random))
  }
  for (const name of MEMORY_FILES) writeFileSync(join(paths.memory, name), prose(4096 + Math.floor(random() * 8192), random))
  for (let i = 0; i < DAY_PAGES; i++) {
    const day = new Date(start + i * 7 * 86_400_000).toISOString().slice(0, 10)
    writeFileSync(join(paths.days, `${day}.md`), `# ${day}\n\n${prose(1500 + Math.floor(random() * 2500), random)}`)
  }
  return paths
}

const WORDS = (
  'the user Alex Berlin meeting project deadline decided review launch budget design api release tests ' +
  'migration schema roadmap call team coffee prefers morning Friday invoice 2026 Q3 v2 shipped blocked ' +
  'follow-up reminder flight Tokyo dentist 14:30 contract renewal Sam Priya onboarding bug fix memory notes'
).split(' ')

function dailyNote(day: string, bytes: number, random: () => number): string {
  const head =
    `---\ndate: ${day}\nsummarised_until: ${day}T22:10:00Z\nmessages_total: ${Math.floor(random() * 80)}\n` +
    `scope_mode: all\n---\n# ${day}\n\n← [[prev]] | [[next]] →\n\n---\n<!-- DREAM_CUES\n`
  let cues = ''
  while (cues.length < bytes / 3) cues += `- ${day}T${String(Math.floor(random() * 24)).padStart(2, '0')}:12 user Alex [web]: ${prose(80 + Math.floor(random() * 100), random)}\n`
  const body = `${head}${cues}DREAM_CUES -->\n\n## Summary\n\n`
  return body + prose(Math.max(64, bytes - body.length), random)
}

function prose(bytes: number, random: () => number): string {
  let text = ''
  while (text.length < bytes) text += WORDS[Math.floor(random() * WORDS.length)] + (random() < 0.08 ? '.\n' : ' ')
  return text.slice(0, bytes)
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

function treeBytes(paths: WorkspacePaths): number {
  const out = execFileSync('du', ['-sb', paths.notes], { encoding: 'utf8' })
  return Number(out.split('\t')[0])
}

function hasZip(): boolean {
  return spawnSync('zip', ['-v'], { stdio: 'ignore' }).status === 0
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

const ms = (value: number): string => `${value.toFixed(0)} ms`
const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(2)
