// `/dream 365` on the 1M-message workspace with the real offline engine, from the built code users run: a whole
// year's window (about 494k messages) read, summarised day by day and consolidated, in a fresh process.
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pino } from 'pino'
import { buildIfStale } from './build.js'
import { ensureDb, NOW, ROOT } from './fixtures/seed-db.js'
import type { BenchRow } from './run.js'

const DAYS = 365
const TARGET_SECONDS = 30

interface YearDreamReport {
  status: string
  seconds: number
  cpuSeconds: number
  notes: number
  complete: number
}

/** The modules the child runs, from dist/ (its threads start as users' do, without tsx). */
async function dist() {
  const from = (path: string) => new URL(`../dist/${path}.js`, import.meta.url).href
  return {
    ...((await import(from('config/resolve'))) as typeof import('../src/config/resolve.js')),
    ...((await import(from('create'))) as typeof import('../src/create.js')),
    ...((await import(from('notes/init-workspace'))) as typeof import('../src/notes/init-workspace.js')),
    ...((await import(from('notes/paths'))) as typeof import('../src/notes/paths.js')),
    ...((await import(from('notes/daily-note'))) as typeof import('../src/notes/daily-note.js')),
  }
}

/** Runs in a fresh process: seeds and dreams the year on a copy of the DB, clock set to the DB's "now". */
async function dreamYearChild(dbFile: string): Promise<YearDreamReport> {
  const code = await dist()
  const workspace = mkdtempSync(join(tmpdir(), 'dreamlane-year-dream-'))
  try {
    const config = code.resolveConfig({ cwd: workspace, env: {}, flags: { workspace, timezone: 'UTC' } })
    const paths = code.workspacePaths(config)
    await code.initWorkspace(paths)
    copyFileSync(dbFile, paths.messagesDb)
    const offsetMs = NOW.getTime() - Date.now()
    const clock = { now: () => new Date(Date.now() + offsetMs) }
    const dreamlane = code.openDreamlane({ config, clock, logger: pino({ level: 'silent' }) })
    const cpu = process.cpuUsage()
    const started = performance.now()
    const run = await dreamlane.dream({ mode: 'manual', chatJid: 'web:main', days: DAYS })
    const seconds = (performance.now() - started) / 1000
    const used = process.cpuUsage(cpu)
    await dreamlane.close()
    const notes = readdirSync(paths.daily).filter((name) => /^\d{4}-\d{2}-\d{2}\.md$/.test(name))
    const complete = notes.filter((name) => {
      const path = join(paths.daily, name)
      return code.dayStateOf(code.parseDailyNote(readFileSync(path, 'utf8'), path)) === 'complete'
    }).length
    return {
      status: run.status,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      notes: notes.length,
      complete,
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}

if (process.argv[2] === '--child') {
  console.log(JSON.stringify(await dreamYearChild(process.argv[3] as string)))
}

export async function run(): Promise<BenchRow[]> {
  const dbFile = ensureDb(1_000_000)
  buildIfStale('year-dream')
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', dbFile],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
  if (child.status !== 0) throw new Error(`year-dream bench child failed (${child.status}):\n${child.stderr}`)
  const report = JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as YearDreamReport
  return [
    {
      name: `/dream ${DAYS} with the offline engine, built code (dist/)`,
      subject: `the 1M-message workspace (${report.notes} daily notes, ${report.complete} complete after the dream)`,
      baseline: `the ${TARGET_SECONDS} s target`,
      measured: `${report.seconds.toFixed(1)} s (process CPU ${report.cpuSeconds.toFixed(1)} s, run ${report.status})`,
      ratio: report.seconds / TARGET_SECONDS,
      target: `≤ 1 and every day with messages complete (load ${loadavg()[0]!.toFixed(1)})`,
    },
  ]
}
