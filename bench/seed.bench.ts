// Seeding cost must follow the window, not the history: 7 days on a 1M-message DB vs a 10k one, same window,
// on DBs dreamlane created (with its timestamp index) and on DBs as PiClaw makes them (only (chat_jid, timestamp)).
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import Database from 'better-sqlite3'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { resolveConfig } from '../src/config/resolve.js'
import { openMessagesDb } from '../src/db/messages.js'
import { workspacePaths } from '../src/notes/paths.js'
import { seedDailyNotes } from '../src/notes/seed.js'
import { dayWindow } from '../src/time/local-day.js'
import type { BenchRow } from './run.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CACHE_DIR = join(ROOT, '.bench-tmp')
/** Bump when the generated data changes, so cached DBs are rebuilt. */
const DATA_VERSION = 1
const NOW = new Date('2026-11-21T12:00:00Z')
const WINDOW_DAYS = 7
const WINDOW_MESSAGES_PER_DAY = 1000
const CHATS = 24
const RUNS = 5
const ROUNDS = 3

const WORDS = (
  'trip budget flight hotel invoice garden recipe deadline launch review draft meeting dentist ' +
  'birthday concert marathon training python release migration backup router printer museum ' +
  'passport visa tickets ferry coffee lunch dinner weekend project roadmap design bug fix deploy'
).split(' ')

/** Deterministic pseudo-random numbers (mulberry32), so both DBs hold the same window bytes. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function sentence(next: () => number): string {
  const length = 4 + Math.floor(next() * 40)
  return Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ')
}

/** Builds (once, cached by size) a messages DB of `total` messages whose last 7 days are identical across sizes. */
function ensureDb(total: number): string {
  const file = join(CACHE_DIR, `seed-v${DATA_VERSION}-${total}.db`)
  if (existsSync(file)) return file
  mkdirSync(CACHE_DIR, { recursive: true })
  const building = `${file}.building`
  rmSync(building, { force: true })
  const db = openMessagesDb(building, { create: true })
  const window = dayWindow(NOW, WINDOW_DAYS, 'UTC')
  const windowCount = WINDOW_DAYS * WINDOW_MESSAGES_PER_DAY
  const historyCount = total - windowCount
  const insert = db.db.prepare(`INSERT INTO messages
    (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
  db.db.transaction(() => {
    for (let c = 0; c < CHATS; c++) db.upsertChat(`chat${c}@g`, `Chat ${c}`)
    for (let c = 0; c < CHATS; c += 4) {
      db.upsertBranch({ branchId: `b${c}`, chatJid: `chat${c + 1}@g`, rootChatJid: `chat${c}@g` })
    }
    const add = (id: string, ms: number, next: () => number): void => {
      const chat = Math.floor(next() * CHATS)
      const isBot = next() < 0.5 ? 1 : 0
      insert.run(
        id,
        `chat${chat}@g`,
        isBot ? 'bot' : 'user',
        isBot ? 'Assistant' : 'Alex',
        sentence(next),
        new Date(ms).toISOString(),
        isBot ? 0 : 1,
        isBot,
      )
    }
    // History: spread over the two years before the window, its own random stream.
    const history = random(7)
    const span = 730 * 86_400_000
    for (let i = 0; i < historyCount; i++)
      add(`h${i}`, window.start.getTime() - span + Math.floor((i / historyCount) * span), history)
    // The window: the same stream and timestamps in every DB.
    const recent = random(42)
    const windowMs = window.end.getTime() - window.start.getTime()
    for (let i = 0; i < windowCount; i++)
      add(`w${i}`, window.start.getTime() + Math.floor((i / windowCount) * windowMs), recent)
  })()
  db.db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  renameSync(building, file)
  return file
}

/** A copy of `file` as a host would have it: no dreamlane application id, no dreamlane timestamp index. */
function ensurePiclawDb(file: string): string {
  const copy = file.replace(/\.db$/, '-piclaw.db')
  if (existsSync(copy)) return copy
  const building = `${copy}.building`
  copyFileSync(file, building)
  const db = new Database(building)
  db.exec('DROP INDEX IF EXISTS idx_messages_timestamp; PRAGMA application_id = 0; VACUUM')
  const left = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
    .pluck()
    .all()
  db.close()
  if (left.join() !== 'idx_messages_chat_time')
    throw new Error(`seed bench: unexpected indexes ${left.join()}`)
  renameSync(building, copy)
  return copy
}

interface ChildReport {
  medianMs: number
  peakRssMb: number
  /** RSS after imports, before the first seed: what the runtime costs without seeding. */
  startRssMb: number
  days: number
  messages: number
}

/** Runs in a fresh process: seeds the window RUNS times into an empty workspace, reports median time and peak RSS. */
async function measureChild(dbFile: string): Promise<ChildReport> {
  const startRssMb = process.memoryUsage().rss / 1024 / 1024
  const workspace = mkdtempSync(join(tmpdir(), 'dreamlane-seed-bench-'))
  try {
    const config = resolveConfig({
      cwd: workspace,
      env: {},
      flags: { workspace, timezone: 'UTC', messagesDb: dbFile },
    })
    const paths = workspacePaths(config)
    const messages = openMessagesDb(dbFile, { readonly: true })
    const window = dayWindow(NOW, WINDOW_DAYS, 'UTC')
    const times: number[] = []
    let result = await seedDailyNotes({ paths, config, messages, window }) // warm-up: page cache, JIT
    for (let run = 0; run < RUNS; run++) {
      rmSync(paths.daily, { recursive: true, force: true })
      const started = performance.now()
      result = await seedDailyNotes({ paths, config, messages, window })
      times.push(performance.now() - started)
    }
    messages.close()
    times.sort((a, b) => a - b)
    return {
      medianMs: times[Math.floor(times.length / 2)] as number,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      startRssMb,
      days: result.days.length,
      messages: result.days.reduce((sum, day) => sum + day.messages, 0),
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}

function measureInChild(dbFile: string): ChildReport {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', dbFile],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
  if (child.status !== 0) throw new Error(`seed bench child failed (${child.status}):\n${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as ChildReport
}

export async function run(): Promise<BenchRow[]> {
  const ours = [ensureDb(10_000), ensureDb(1_000_000)] as const
  const piclaw = [ensurePiclawDb(ours[0]), ensurePiclawDb(ours[1])] as const
  return [
    compare('seed 7-day window, DB dreamlane created', ours, '≤ 1.5'),
    compare('seed 7-day window, PiClaw-indexed DB (no dreamlane index)', piclaw, '≤ 1.2'),
  ]
}

function compare(name: string, files: readonly [string, string], target: string): BenchRow {
  // Alternating rounds, best median per side: a load spike from elsewhere hits one round, not the result.
  const rounds = Array.from({ length: ROUNDS }, () => files.map(measureInChild))
  const best = (side: 0 | 1): ChildReport =>
    rounds.map((round) => round[side] as ChildReport).reduce((a, b) => (b.medianMs < a.medianMs ? b : a))
  const small = best(0)
  const large = best(1)
  if (small.messages !== large.messages)
    throw new Error('seed bench: the two DBs do not hold the same window')
  return {
    name,
    subject: `1M-message DB vs 10k-message DB (${large.messages} window messages, ${large.days} days)`,
    baseline: `${small.medianMs.toFixed(1)} ms (10k)`,
    measured: `${large.medianMs.toFixed(1)} ms (1M)`,
    ratio: large.medianMs / small.medianMs,
    target,
    notes:
      `peak RSS ${small.peakRssMb.toFixed(0)} MB (10k) vs ${large.peakRssMb.toFixed(0)} MB (1M), ` +
      `from ${small.startRssMb.toFixed(0)} / ${large.startRssMb.toFixed(0)} MB before seeding; ` +
      `best of ${ROUNDS} fresh processes per side, each the median of ${RUNS} runs`,
  }
}

if (process.argv[2] === '--child' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const report = await measureChild(process.argv[3] as string)
  process.stdout.write(`${JSON.stringify(report)}\n`)
}
