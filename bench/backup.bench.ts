// Backup vs `zip -r` on 2,000 and 20,000 notes: time, archive size and peak RSS growth, each side in its own process.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createBackup } from '../src/backup/create.js'
import { DEFAULT_ZIP_TUNING } from '../src/backup/write-zip.js'
import { systemClock } from '../src/clock.js'
import { MEMORY_FILES, workspacePaths, type WorkspacePaths } from '../src/notes/paths.js'
import type { BenchRow } from './run.js'
import { buildIfStale } from './build.js'
import { median } from './stats.js'

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..')
const BENCH_DIR = join(ROOT, '.bench-tmp', 'backup')
const BIN = join(ROOT, 'bin', 'dreamlane.js')
const SIZES = [2000, 20_000] as const
const DAY_PAGES = 120
const RUNS = 5
const TIME = '/usr/bin/time'

/** One side of one round: wall time, archive size and how far peak RSS rose above the process's start. */
interface Sample {
  ms: number
  /** createBackup only: its first call in the process. */
  coldMs?: number
  bytes: number
  growthMiB: number
}

/**
 * `--child <workspace> <dataDir>`: two createBackup calls in a fresh process: the first cold (JIT, worker
 * start-up, as for a CLI run), the second warm (as in a long-running server's next dream). Peak RSS
 * growth is the first call's: the process's peak after it, less its RSS before it.
 */
if (process.argv[2] === '--child') {
  const [workspace, dataDir] = process.argv.slice(3) as [string, string]
  const paths = workspacePaths({ workspace, dataDir, messagesDb: join(dataDir, 'messages.db') })
  const startRss = process.memoryUsage().rss
  const input = { paths, mode: 'bench', chatJid: 'bench', clock: systemClock, keep: 1 }
  const backupMs = async (): Promise<{ ms: number; bytes: number }> => {
    const started = performance.now()
    const { bytes } = await createBackup(input)
    return { ms: performance.now() - started, bytes }
  }
  const cold = await backupMs()
  const growthMiB = (process.resourceUsage().maxRSS * 1024 - startRss) / 2 ** 20
  const warm = await backupMs()
  console.log(JSON.stringify({ ms: warm.ms, coldMs: cold.ms, bytes: warm.bytes, growthMiB } satisfies Sample))
}

export async function run(): Promise<BenchRow[]> {
  if (!hasTool('zip', ['-v']) || !hasTool(TIME, ['--version'])) {
    console.log('\n  backup: `zip` or GNU time not found — skipping the backup-vs-zip rows')
    return []
  }
  buildIfStale('backup')
  const rows: BenchRow[] = []
  for (const notes of SIZES) rows.push(...compare(notes))
  return rows
}

function compare(notes: number): BenchRow[] {
  const paths = makeTree(notes)
  const zipOut = join(BENCH_DIR, 'zip-r.zip')
  const sides = {
    /** zip's default level 6, whole process; its peak RSS is all growth. */
    zip: (): Sample => {
      rmSync(zipOut, { force: true }) // zip -r would otherwise update the existing archive
      const started = performance.now()
      const peakKiB = timed(['zip', '-qr', zipOut, 'notes/daily', 'notes/memory'], paths.workspace)
      return { ms: performance.now() - started, bytes: statSync(zipOut).size, growthMiB: peakKiB / 1024 }
    },
    /** createBackup alone, timed inside its own process (start-up excluded, RSS from before the calls). */
    createBackup: (): Sample => {
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', paths.workspace, paths.dataDir],
        { cwd: ROOT, encoding: 'utf8' },
      )
      if (child.status !== 0) throw new Error(`backup bench child failed (${child.status}):\n${child.stderr}`)
      return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as Sample
    },
    /** The whole CLI process, start-up included; its growth is over a bare `node -e 0`. */
    cli: (): Sample => {
      const started = performance.now()
      const args = [process.execPath, BIN, '--workspace', paths.workspace, '--data-dir', paths.dataDir]
      const peakKiB = timed([...args, 'backups', 'create'], paths.workspace, { DREAMLANE_BACKUP_KEEP: '1' })
      const ms = performance.now() - started
      return { ms, bytes: newestBackupBytes(paths), growthMiB: (peakKiB - bareNodeKiB()) / 1024 }
    },
  }
  type Side = keyof typeof sides
  const names = Object.keys(sides) as Side[]
  const samples = new Map<Side, Sample[]>(names.map((name) => [name, []]))
  for (const name of names) sides[name]() // warm-up: page cache, dist/ compiled
  for (let round = 0; round < RUNS; round++) {
    for (const name of names) samples.get(name)?.push(sides[name]())
  }
  const med = (name: Side, key: keyof Sample): number =>
    median((samples.get(name) ?? []).map((s) => s[key] ?? Number.NaN))
  const maxGrowth = (name: Side): number => Math.max(...(samples.get(name) ?? []).map((s) => s.growthMiB))
  const subject =
    `${notes.toLocaleString('en')} daily notes (1–6 KB), ${MEMORY_FILES.length} memory files, ` +
    `${DAY_PAGES} day pages: ${mib(treeBytes(paths))} MiB`
  const baseline = `zip -r ${ms(med('zip', 'ms'))}, ${mib(med('zip', 'bytes'))} MiB, peak RSS ${maxGrowth('zip').toFixed(0)} MiB`
  const row = (side: Side, label: string, notesText: string): BenchRow => ({
    name: `backup: ${label}, ${notes.toLocaleString('en')} notes`,
    subject,
    baseline,
    measured:
      `${ms(med(side, 'ms'))}, ${mib(med(side, 'bytes'))} MiB ` +
      `(size ${(med(side, 'bytes') / med('zip', 'bytes')).toFixed(2)}×), ` +
      `peak RSS growth ${maxGrowth(side).toFixed(0)} MiB (max of ${RUNS})`,
    ratio: med(side, 'ms') / med('zip', 'ms'),
    target: '≤ 1.5× time, ≤ 1.1× size, RSS growth ≤ 64 MiB',
    notes: notesText,
  })
  const tuning = DEFAULT_ZIP_TUNING
  return [
    row(
      'createBackup',
      'createBackup (warm)',
      `warm: the second backup in its process; the first (cold) took ${ms(med('createBackup', 'coldMs'))} ` +
        `→ ${(med('createBackup', 'coldMs') / med('zip', 'ms')).toFixed(2)}×; deflate level ${tuning.level} on ` +
        `${tuning.packWorkers} worker(s), batches of ${tuning.batchFiles}; sha256 manifest, fsync and prune ` +
        `included; medians of ${RUNS}`,
    ),
    row('cli', '`dreamlane backups create`, whole process', 'node start-up and CLI wiring included'),
  ]
}

/** Runs `command` under GNU time; returns its peak RSS in KiB. */
function timed(command: string[], cwd: string, env: Record<string, string> = {}): number {
  const child = spawnSync(TIME, ['-f', '%M', ...command], {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  })
  if (child.status !== 0) throw new Error(`backup bench: ${command.join(' ')} failed:\n${child.stderr}`)
  return Number(child.stderr.trim().split('\n').at(-1))
}

let bareNode: number | undefined
function bareNodeKiB(): number {
  bareNode ??= timed([process.execPath, '-e', '0'], ROOT)
  return bareNode
}

function newestBackupBytes(paths: WorkspacePaths): number {
  const zips = readdirSync(paths.backups)
    .filter((name) => name.endsWith('.zip'))
    .sort()
  return statSync(join(paths.backups, zips.at(-1) as string)).size
}

/** A deterministic notes tree shaped like dreamlane's: front matter, cues, summaries, memory files. */
function makeTree(notes: number): WorkspacePaths {
  const root = join(BENCH_DIR, `notes-${notes}`)
  rmSync(root, { recursive: true, force: true })
  const workspace = join(root, 'workspace')
  const dataDir = join(root, 'data')
  const paths = workspacePaths({ workspace, dataDir, messagesDb: join(dataDir, 'messages.db') })
  mkdirSync(paths.daily, { recursive: true })
  mkdirSync(paths.days, { recursive: true })
  const random = seededRandom(20261121)
  const between = (min: number, max: number): number => min + Math.floor(random() * (max - min))
  const start = Date.UTC(1971, 0, 1)
  const dayAt = (index: number): string => new Date(start + index * 86_400_000).toISOString().slice(0, 10)
  for (let i = 0; i < notes; i++) {
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

function hasTool(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0
}

const ms = (value: number): string => `${value.toFixed(0)} ms`
const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(2)
