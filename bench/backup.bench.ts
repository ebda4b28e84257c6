// Backup speed: createBackup (tuned archiver) and archiver with defaults, each against `zip -r` on one tree.
import { execFileSync, spawnSync } from 'node:child_process'
import { createWriteStream, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { ZipArchive } from 'archiver'
import { createBackup } from '../src/backup/create.js'
import { DEFAULT_ZIP_TUNING, type ZipTuning } from '../src/backup/write-zip.js'
import { systemClock } from '../src/clock.js'
import { MEMORY_FILES, workspacePaths, type WorkspacePaths } from '../src/notes/paths.js'
import type { BenchRow } from './run.js'

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '.bench-tmp', 'backup')
const DAILY_NOTES = 2000
const DAY_PAGES = 120
const RUNS = 5

type Contender = 'zip' | 'tuned' | 'deflateAll' | 'defaults'

export async function run(): Promise<BenchRow[]> {
  const paths = makeTree()
  if (!hasZip()) {
    console.log('\n  backup: `zip` not found on PATH — skipping the backup-vs-zip rows')
    return []
  }
  const zipOut = join(ROOT, 'zip-r.zip')
  const defaultsOut = join(ROOT, 'archiver-defaults.zip')
  const deflateAll: ZipTuning = { ...DEFAULT_ZIP_TUNING, storeBelowBytes: 0 }
  const backup = async (tuning: ZipTuning): Promise<number> => {
    const input = { paths, mode: 'bench', chatJid: 'bench', clock: systemClock, keep: 2, tuning }
    return (await createBackup(input)).bytes
  }
  const contenders: Record<Contender, () => Promise<unknown>> = {
    zip: async () => {
      rmSync(zipOut, { force: true }) // zip -r would otherwise update the existing archive
      execFileSync('zip', ['-qr', zipOut, 'notes/daily', 'notes/memory'], { cwd: paths.workspace })
    },
    tuned: () => backup(DEFAULT_ZIP_TUNING),
    deflateAll: () => backup(deflateAll),
    defaults: () => zipWithArchiverDefaults(paths, defaultsOut),
  }
  const medians = await measure(contenders)
  const sizes: Record<Contender, number> = {
    zip: statSync(zipOut).size,
    tuned: await backup(DEFAULT_ZIP_TUNING),
    deflateAll: await backup(deflateAll),
    defaults: statSync(defaultsOut).size,
  }

  const tree = `${mib(treeBytes(paths))} MiB`
  const counts =
    `${DAILY_NOTES} daily notes (1–6 KB), ${MEMORY_FILES.length} memory files, ` + `${DAY_PAGES} day pages`
  const subject = `${counts}: ${tree}`
  const row = (name: Contender, label: string, notes: string, target?: string): BenchRow => ({
    name: `backup: ${label}`,
    subject,
    baseline: `zip -r ${ms(medians.zip)} (${mib(sizes.zip)} MiB)`,
    measured: `${ms(medians[name])} (${mib(sizes[name])} MiB)`,
    ratio: medians[name] / medians.zip,
    ...(target ? { target } : {}),
    notes,
  })
  const tuning = DEFAULT_ZIP_TUNING
  return [
    row(
      'tuned',
      'createBackup, tuned archiver',
      `store < ${tuning.storeBelowBytes} B, deflate level ${tuning.level} above, ` +
        `read-ahead ${tuning.readAhead}, ${tuning.writeBatchBytes / 1024} KiB writes; ` +
        'sha256 manifest, fsync and prune included',
      '≤ 2×',
    ),
    row('deflateAll', 'createBackup, deflating every file', 'storeBelowBytes 0: the per-entry zlib cost'),
    row('defaults', 'archiver with defaults', 'new ZipArchive(), directory() per root; no hash, no manifest'),
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

/** One warm-up each, then RUNS interleaved rounds (load drift hits every contender alike); medians in ms. */
async function measure(
  contenders: Record<Contender, () => Promise<unknown>>,
): Promise<Record<Contender, number>> {
  const names = Object.keys(contenders) as Contender[]
  const times = new Map<Contender, number[]>(names.map((name) => [name, []]))
  for (const name of names) await contenders[name]()
  for (let round = 0; round < RUNS; round++) {
    for (const name of names) {
      const started = performance.now()
      await contenders[name]()
      times.get(name)?.push(performance.now() - started)
    }
  }
  const medians = names.map((name) => [name, median(times.get(name) ?? [])])
  return Object.fromEntries(medians) as Record<Contender, number>
}

/** A deterministic notes tree shaped like dreamlane's: front matter, cues, summaries, memory files. */
function makeTree(): WorkspacePaths {
  rmSync(ROOT, { recursive: true, force: true })
  const workspace = join(ROOT, 'workspace')
  const dataDir = join(ROOT, 'data')
  const paths = workspacePaths({ workspace, dataDir, messagesDb: join(dataDir, 'messages.db') })
  mkdirSync(paths.daily, { recursive: true })
  mkdirSync(paths.days, { recursive: true })
  const random = seededRandom(20261121)
  const between = (min: number, max: number): number => min + Math.floor(random() * (max - min))
  const start = Date.UTC(2021, 0, 1)
  const dayAt = (index: number): string => new Date(start + index * 86_400_000).toISOString().slice(0, 10)
  for (let i = 0; i < DAILY_NOTES; i++) {
    writeFileSync(join(paths.daily, `${dayAt(i)}.md`), dailyNote(dayAt(i), between(1024, 6144), random))
  }
  for (const name of MEMORY_FILES) {
    writeFileSync(join(paths.memory, name), prose(between(4096, 12288), random))
  }
  for (let i = 0; i < DAY_PAGES; i++) {
    const day = dayAt(i * 7)
    writeFileSync(join(paths.days, `${day}.md`), `# ${day}\n\n${prose(between(1500, 4000), random)}`)
  }
  return paths
}

const WORDS = (
  'the user Alex Berlin meeting project deadline decided review launch budget design api release tests ' +
  'migration schema roadmap call team coffee prefers morning Friday invoice 2026 Q3 v2 shipped blocked ' +
  'follow-up reminder flight Tokyo dentist 14:30 contract renewal Sam Priya onboarding bug fix notes'
).split(' ')

function dailyNote(day: string, bytes: number, random: () => number): string {
  const head =
    `---\ndate: ${day}\nsummarised_until: ${day}T22:10:00Z\nmessages_total: ${Math.floor(random() * 80)}\n` +
    `scope_mode: all\n---\n# ${day}\n\n← [[prev]] | [[next]] →\n\n---\n<!-- DREAM_CUES\n`
  let cues = ''
  while (cues.length < bytes / 3) {
    const hour = String(Math.floor(random() * 24)).padStart(2, '0')
    cues += `- ${day}T${hour}:12 user Alex [web]: ${prose(80 + Math.floor(random() * 100), random)}\n`
  }
  const body = `${head}${cues}DREAM_CUES -->\n\n## Summary\n\n`
  return body + prose(Math.max(64, bytes - body.length), random)
}

function prose(bytes: number, random: () => number): string {
  let text = ''
  while (text.length < bytes) {
    text += WORDS[Math.floor(random() * WORDS.length)] + (random() < 0.08 ? '.\n' : ' ')
  }
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
  return Number(execFileSync('du', ['-sb', paths.notes], { encoding: 'utf8' }).split('\t')[0])
}

function hasZip(): boolean {
  return spawnSync('zip', ['-v'], { stdio: 'ignore' }).status === 0
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const at = (index: number): number => sorted[index] ?? Number.NaN
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2
}

const ms = (value: number): string => `${value.toFixed(0)} ms`
const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(2)
