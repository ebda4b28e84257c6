// Recall events must cost the same per event at 100k stored as at 10k (append-only), unlike a whole-store rewrite.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RECALL_SIGNALS } from '../src/config/schema.js'
import { openStateDb } from '../src/db/state.js'
import { recordRecall } from '../src/recall/events.js'
import { RECALL_PRESETS, type RecallPolicy } from '../src/recall/presets.js'
import { scoreCandidates } from '../src/recall/score.js'
import { loadCandidateStats } from '../src/recall/stats.js'
import type { BenchRow } from './run.js'
import { median } from './stats.js'

const NOTES = 40
const PARAGRAPHS = 25
const HITS_PER_SEARCH = 5
const SMALL_EVENTS = 10_000
const LARGE_EVENTS = 100_000
const ROUND_EVENTS = 1_000
const ROUNDS = 15
const NOW = Date.parse('2026-11-23T12:00:00Z')
const DAY_MS = 86_400_000
/** Whole-store baseline: the anchor's JSON file rewritten on every recall. */
const REWRITE_SAMPLES = 200

type State = ReturnType<typeof openStateDb>

const policy: RecallPolicy = {
  preset: 'core',
  ...RECALL_PRESETS.core,
  maxAgeDays: 30,
  halfLifeDays: 14,
  weights: Object.fromEntries(RECALL_SIGNALS.map((name) => [name, 1 / 6])) as RecallPolicy['weights'],
}

function makeWorkspace(dir: string): void {
  mkdirSync(join(dir, 'notes', 'topics'), { recursive: true })
  for (let n = 0; n < NOTES; n++) {
    const paragraphs = Array.from(
      { length: PARAGRAPHS },
      (_, p) => `- note ${n} fact ${p}: the harbour ferry leaves at ${p}:00`,
    )
    writeFileSync(join(dir, 'notes', 'topics', `topic-${n}.md`), `# Topic ${n}\n\n${paragraphs.join('\n')}\n`)
  }
}

/** A store and the search counter its next recorded search continues from. */
interface Store {
  state: State
  events: number
  searches: number
}

/** Records searches of HITS_PER_SEARCH hits until `count` more events are in, spread over 20 days and all blocks. */
function recordEvents(dir: string, store: Store, count: number): void {
  const target = store.events + count
  while (store.events < target) {
    const search = store.searches++
    const hits = Array.from({ length: HITS_PER_SEARCH }, (_, h) => ({
      path: `notes/topics/topic-${(search * 13 + h * 7) % NOTES}.md`,
      line: 3 + ((Math.floor(search / NOTES) + h) % PARAGRAPHS),
      snippet: '',
      score: 10 - h,
    }))
    // A prime stride in seconds scatters searches over the 20 days before NOW.
    const at = new Date(NOW - 20 * DAY_MS + ((search * 7_919_000) % (20 * DAY_MS)))
    const input = { query: `ferry ${search % 97}`, hits, chatJid: 'bench@chat', at, workspace: dir }
    store.events += recordRecall(store.state, input).recorded
  }
}

/** µs per event of one round of ROUND_EVENTS appended to `store`. */
function timeRound(dir: string, store: Store): number {
  const started = performance.now()
  const before = store.events
  recordEvents(dir, store, ROUND_EVENTS)
  return ((performance.now() - started) * 1000) / (store.events - before)
}

/** ms of one full scoring (load + score + gate + sort) of the store as it is. */
function timeScoring(store: Store): { ms: number; candidates: number } {
  const started = performance.now()
  const candidates = scoreCandidates(loadCandidateStats(store.state), new Date(NOW), policy).length
  return { ms: performance.now() - started, candidates }
}

/** µs per recall when every recall rewrites a JSON store holding `size` entries (what OpenClaw shipped). */
function timeWholeStoreRewrite(dir: string, size: number): number {
  const file = join(dir, `store-${size}.json`)
  const entries = Object.fromEntries(
    Array.from({ length: size }, (_, i) => [
      `notes/topics/topic-${i % NOTES}.md:${i}`,
      { count: 3, days: ['2026-11-20'], queries: ['abc123def456'] },
    ]),
  )
  writeFileSync(file, JSON.stringify(entries))
  const started = performance.now()
  for (let i = 0; i < REWRITE_SAMPLES; i++) {
    const store = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { count: number }>
    const key = `notes/topics/topic-${i % NOTES}.md:${i}`
    store[key] = { ...(store[key] ?? { count: 0 }), count: (store[key]?.count ?? 0) + 1 }
    writeFileSync(file, JSON.stringify(store))
  }
  return ((performance.now() - started) * 1000) / REWRITE_SAMPLES
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dreamlane-recall-bench-'))
  const small: Store = { state: openStateDb(join(dir, '.dreamlane', 'small.db')), events: 0, searches: 0 }
  const large: Store = { state: openStateDb(join(dir, '.dreamlane', 'large.db')), events: 0, searches: 0 }
  try {
    makeWorkspace(dir)
    recordEvents(dir, small, SMALL_EVENTS)
    recordEvents(dir, large, LARGE_EVENTS)
    // Rounds alternate between the stores (and which goes first), so load from other processes hits both alike.
    const record = { small: [] as number[], large: [] as number[] }
    const score = { small: [] as number[], large: [] as number[] }
    let candidates = 0
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const)
      for (const name of order) {
        const store = name === 'small' ? small : large
        const scoring = timeScoring(store)
        score[name].push((scoring.ms * 1000) / store.events)
        if (name === 'large') candidates = scoring.candidates
        record[name].push(timeRound(dir, store))
      }
    }
    const [rec10k, rec100k] = [median(record.small), median(record.large)]
    const [score10k, score100k] = [median(score.small), median(score.large)]
    const rewrite1k = timeWholeStoreRewrite(dir, 1_000)
    const rewrite10k = timeWholeStoreRewrite(dir, 10_000)
    return [
      {
        name: 'recall: record an event',
        subject: `${HITS_PER_SEARCH} hits per search over ${NOTES} notes, median of ${ROUNDS} interleaved 1k-event rounds`,
        baseline: `${rec10k.toFixed(1)} µs/event with 10k stored`,
        measured: `${rec100k.toFixed(1)} µs/event with 100k stored`,
        ratio: rec100k / rec10k,
        target: '≤ 1.3',
        notes: 'append-only rows; includes reading each hit file to key its block',
      },
      {
        name: 'recall: score every candidate',
        subject: `${candidates} chunks, load + score + gate + sort`,
        baseline: `${score10k.toFixed(2)} µs/event with 10k stored`,
        measured: `${score100k.toFixed(2)} µs/event with 100k stored`,
        ratio: score100k / score10k,
        target: '≤ 1.3',
      },
      {
        name: 'recall: whole-store rewrite (the anchor bug, for contrast)',
        subject: 'JSON store read + rewritten per recall',
        baseline: `${rewrite1k.toFixed(0)} µs/recall with 1k entries`,
        measured: `${rewrite10k.toFixed(0)} µs/recall with 10k entries`,
        ratio: rewrite10k / rewrite1k,
        notes: 'grows with the store; dreamlane appends instead',
      },
    ]
  } finally {
    small.state.close()
    large.state.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
