// Per-chunk recall totals: live events grouped in SQL, compacted rows read back, and the two merged.
import type { StateDb } from '../db/state.js'
import { parseList, recallStatement } from './store.js'

/**
 * Distinct queries and days kept per chunk once compacted. Diversity saturates at 5 and the gates ask for
 * single digits, so a count that stops growing at 64 never changes a verdict.
 */
export const MAX_TRACKED = 64

/** Everything the signals need about one chunk's recalls. */
export interface ChunkTotals {
  recalls: number
  relevanceSum: number
  scoreSum: number
  firstAtMs: number
  lastAtMs: number
  firstDay: string
  lastDay: string
  /** Distinct query hashes (capped at MAX_TRACKED once compacted). */
  queries: string[]
  /** Distinct local days (the most recent MAX_TRACKED once compacted). */
  days: string[]
}

interface GroupRow {
  chunkKey: string
  recalls: number
  relevanceSum: number
  scoreSum: number
  firstAtMs: number
  lastAtMs: number
  firstDay: string
  lastDay: string
  queries: string
  days: string
}

const GROUP_SQL = `SELECT chunk_key AS chunkKey, count(*) AS recalls, sum(relevance) AS relevanceSum,
    sum(score) AS scoreSum, min(at_ms) AS firstAtMs, max(at_ms) AS lastAtMs, min(day) AS firstDay,
    max(day) AS lastDay, group_concat(DISTINCT query_hash) AS queries, group_concat(DISTINCT day) AS days
  FROM recall_events WHERE at_ms < ? GROUP BY chunk_key`

/** Live events before `beforeMs` (all of them by default), totalled per chunk in one pass. */
export function groupEvents(state: StateDb, beforeMs = Number.MAX_SAFE_INTEGER): Map<string, ChunkTotals> {
  const rows = recallStatement(state, GROUP_SQL).all(beforeMs) as GroupRow[]
  return new Map(
    rows.map((row) => [
      row.chunkKey,
      { ...row, queries: row.queries.split(','), days: row.days.split(',') } satisfies ChunkTotals,
    ]),
  )
}

/** A recall_totals row: the same shape as a group, its sets stored as JSON arrays. */
type TotalsRow = GroupRow

const TOTALS_COLUMNS = `chunk_key AS chunkKey, recalls, relevance_sum AS relevanceSum, score_sum AS scoreSum,
  first_at_ms AS firstAtMs, last_at_ms AS lastAtMs, first_day AS firstDay, last_day AS lastDay,
  query_hashes AS queries, days`

function fromRow(row: TotalsRow): ChunkTotals {
  const { chunkKey: _key, ...rest } = row
  return { ...rest, queries: parseList(row.queries), days: parseList(row.days) }
}

/** Every compacted chunk's totals. */
export function loadTotals(state: StateDb): Map<string, ChunkTotals> {
  const rows = recallStatement(state, `SELECT ${TOTALS_COLUMNS} FROM recall_totals`).all() as TotalsRow[]
  return new Map(rows.map((row) => [row.chunkKey, fromRow(row)]))
}

export function loadTotalsOf(state: StateDb, chunkKey: string): ChunkTotals | undefined {
  const sql = `SELECT ${TOTALS_COLUMNS} FROM recall_totals WHERE chunk_key = ?`
  const row = recallStatement(state, sql).get(chunkKey) as TotalsRow | undefined
  return row ? fromRow(row) : undefined
}

/** Sums, extremes and capped set unions of two totals of the same chunk. */
export function mergeTotals(a: ChunkTotals | undefined, b: ChunkTotals): ChunkTotals {
  if (!a) return b
  return {
    recalls: a.recalls + b.recalls,
    relevanceSum: a.relevanceSum + b.relevanceSum,
    scoreSum: a.scoreSum + b.scoreSum,
    firstAtMs: Math.min(a.firstAtMs, b.firstAtMs),
    lastAtMs: Math.max(a.lastAtMs, b.lastAtMs),
    firstDay: a.firstDay < b.firstDay ? a.firstDay : b.firstDay,
    lastDay: a.lastDay > b.lastDay ? a.lastDay : b.lastDay,
    queries: [...new Set([...a.queries, ...b.queries])],
    days: [...new Set([...a.days, ...b.days])],
  }
}

/** Caps the sets as stored: the first queries seen (sorted, so stable) and the most recent days. */
export function capTotals(totals: ChunkTotals): ChunkTotals {
  return {
    ...totals,
    queries: [...totals.queries].sort().slice(0, MAX_TRACKED),
    days: [...totals.days].sort().reverse().slice(0, MAX_TRACKED),
  }
}

export function saveTotals(state: StateDb, chunkKey: string, totals: ChunkTotals): void {
  const sql = `INSERT INTO recall_totals (chunk_key, recalls, relevance_sum, score_sum, first_at_ms, last_at_ms,
      first_day, last_day, query_hashes, days) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (chunk_key) DO UPDATE SET recalls = excluded.recalls, relevance_sum = excluded.relevance_sum,
      score_sum = excluded.score_sum, first_at_ms = excluded.first_at_ms, last_at_ms = excluded.last_at_ms,
      first_day = excluded.first_day, last_day = excluded.last_day, query_hashes = excluded.query_hashes,
      days = excluded.days`
  const t = capTotals(totals)
  recallStatement(state, sql).run(
    chunkKey,
    t.recalls,
    t.relevanceSum,
    t.scoreSum,
    t.firstAtMs,
    t.lastAtMs,
    t.firstDay,
    t.lastDay,
    JSON.stringify(t.queries),
    JSON.stringify(t.days),
  )
}
