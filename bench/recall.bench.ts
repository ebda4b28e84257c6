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

const NOTES = 40
const PARAGRAPHS = 25
const HITS_PER_SEARCH = 5
const TOTAL_EVENTS = 100_000
const BATCH_EVENTS = 1_000
const NOW = Date.parse('2026-11-23T12:00:00Z')
const DAY_MS = 86_400_000
/** Whole-store baseline: the anchor's JSON file rewritten on every recall. */
const REWRITE_SAMPLES = 200

const policy: RecallPolicy = {
  preset: 'core',
  ...RECALL_PRESETS.core,
  maxAgeDays: 30,
  halfLifeDays: 14,
  weights: Object.fromEntries(RECALL_SIGNALS.map((name) => [name, 1 / 6])) as RecallPolicy['weights'],
}

function makeWorkspace(dir: string): void {
  for (let n = 0; n < NOTES; n++) {
    const paragraphs = Array.from({ length: PARAGRAPHS }, (_, p) => `- note ${n} fact ${p}: the harbour ferry leaves at ${p}:00`)
    mkdirSync(join(dir, 'notes', 'topics'), { recursive: true })
    writeFileSync(join(dir, 'notes', 'topics', `topic-${n}.md`), `# Topic ${n}\n\n${paragraphs.join('\n')}\n`)
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

/**
 * Records TOTAL_EVENTS events in searches of HITS_PER_SEARCH. Returns µs per event of each 1k-event batch, and
 * the scoring time once the store holds 10k events (outside the batch timings).
 */
function recordAll(dir: string, state: ReturnType<typeof openStateDb>): { perBatch: number[]; scoringAt10k: Scoring } {
  const perBatch: number[] = []
  let scoringAt10k: Scoring | undefined
  let events = 0
  let search = 0
  let batchStart = performance.now()
  while (events < TOTAL_EVENTS) {
    // Spread over all NOTES × PARAGRAPHS blocks, so the store grows in chunks as well as in events.
    const hits = Array.from({ length: HITS_PER_SEARCH }, (_, h) => ({
      path: `notes/topics/topic-${(search * 13 + h * 7) % NOTES}.md`,
      line: 3 + ((Math.floor(search / NOTES) + h) % PARAGRAPHS),
      snippet: '',
      score: 10 - h,
    }))
    const at = new Date(NOW - 20 * DAY_MS + Math.floor((events / TOTAL_EVENTS) * 20 * DAY_MS))
    events += recordRecall(state, { query: `ferry ${search % 97}`, hits, chatJid: 'bench@chat', at, workspace: dir }).recorded
    search++
    if (events >= (perBatch.length + 1) * BATCH_EVENTS) {
      perBatch.push(((performance.now() - batchStart) * 1000) / BATCH_EVENTS)
      if (perBatch.length === 10) scoringAt10k = timeScoring(state, events)
      batchStart = performance.now()
    }
  }
  return { perBatch, scoringAt10k: scoringAt10k ?? timeScoring(state, events) }
}

interface Scoring {
  msPerEvent: number
  ms: number
  events: number
  candidates: number
}

/** Median of three full scorings (load + score + gate + sort) of the store as it is. */
function timeScoring(state: ReturnType<typeof openStateDb>, events: number): Scoring {
  const runs: number[] = []
  let candidates = 0
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    candidates = scoreCandidates(loadCandidateStats(state), new Date(NOW), policy).length
    runs.push(performance.now() - started)
  }
  const ms = median(runs)
  return { ms, msPerEvent: ms / events, events, candidates }
}

/** µs per recall when every recall rewrites a JSON store holding `size` entries (what OpenClaw shipped). */
function timeWholeStoreRewrite(dir: string, size: number): number {
  const file = join(dir, `store-${size}.json`)
  const entries = Object.fromEntries(
    Array.from({ length: size }, (_, i) => [`notes/topics/topic-${i % NOTES}.md:${i}`, { count: 3, days: ['2026-11-20'], queries: ['abc123def456'] }]),
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
  try {
    makeWorkspace(dir)
    const state = openStateDb(join(dir, '.dreamlane', 'state.db'))
    // Batches 10–19 (the store holding 10k–20k events) against batches 90–99 (90k–100k): medians damp noise.
    const { perBatch, scoringAt10k } = recordAll(dir, state)
    const at10k = median(perBatch.slice(10, 20))
    const at100k = median(perBatch.slice(90, 100))
    const scoring = timeScoring(state, TOTAL_EVENTS)
    state.close()

    const rewrite1k = timeWholeStoreRewrite(dir, 1_000)
    const rewrite10k = timeWholeStoreRewrite(dir, 10_000)
    return [
      {
        name: 'recall: record an event',
        subject: `${TOTAL_EVENTS / 1000}k events, ${HITS_PER_SEARCH} hits per search, ${NOTES} notes`,
        baseline: `${at10k.toFixed(1)} µs/event with 10k stored`,
        measured: `${at100k.toFixed(1)} µs/event with 100k stored`,
        ratio: at100k / at10k,
        target: '≤ 1.3',
        notes: 'append-only rows; includes reading each hit file to key its block',
      },
      {
        name: 'recall: score every candidate',
        subject: `${scoring.candidates} chunks, load + score + gate + sort`,
        baseline: `${(scoringAt10k.msPerEvent * 1000).toFixed(2)} µs/event with 10k stored (${scoringAt10k.ms.toFixed(0)} ms)`,
        measured: `${(scoring.msPerEvent * 1000).toFixed(2)} µs/event with 100k stored (${scoring.ms.toFixed(0)} ms)`,
        ratio: scoring.msPerEvent / scoringAt10k.msPerEvent,
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
    rmSync(dir, { recursive: true, force: true })
  }
}
