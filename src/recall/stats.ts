// Loads every recalled chunk's evidence from state.db: live events and compacted totals merged per chunk.
import type { StateDb } from '../db/state.js'
import { contentId, loadPromoted } from './promotions.js'
import type { CandidateStats } from './score.js'
import { parseList, recallStatement } from './store.js'
import { groupEvents, loadTotals, mergeTotals } from './totals.js'

interface ChunkRow {
  chunkKey: string
  path: string
  startLine: number
  endLine: number
  contentHash: string
  excerpt: string
  concepts: string
}

/** One CandidateStats per chunk with any recall, in no particular order (scoreCandidates sorts). */
export function loadCandidateStats(state: StateDb): CandidateStats[] {
  const totals = loadTotals(state)
  for (const [key, live] of groupEvents(state)) totals.set(key, mergeTotals(totals.get(key), live))
  const promoted = loadPromoted(state)
  const rows = recallStatement(
    state,
    `SELECT chunk_key AS chunkKey, path, start_line AS startLine, end_line AS endLine, content_hash AS contentHash,
      excerpt, concepts FROM recall_chunks`,
  ).all() as ChunkRow[]
  const out: CandidateStats[] = []
  for (const row of rows) {
    const t = totals.get(row.chunkKey)
    if (!t) continue
    out.push({
      chunkKey: row.chunkKey,
      path: row.path,
      startLine: row.startLine,
      endLine: row.endLine,
      contentHash: row.contentHash,
      excerpt: row.excerpt,
      recalls: t.recalls,
      relevanceSum: t.relevanceSum,
      uniqueQueries: t.queries.length,
      recallDays: t.days.length,
      firstDay: t.firstDay,
      lastDay: t.lastDay,
      lastRecalledMs: t.lastAtMs,
      concepts: parseList(row.concepts).length,
      isPromoted:
        promoted.keys.has(row.chunkKey) || promoted.contents.has(contentId(row.path, row.contentHash)),
    })
  }
  return out
}

/** Rows in the store: live events and compacted chunks. */
export function countStore(state: StateDb): { events: number; compactedChunks: number; chunks: number } {
  const count = (table: string): number =>
    (recallStatement(state, `SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
  return {
    events: count('recall_events'),
    compactedChunks: count('recall_totals'),
    chunks: count('recall_chunks'),
  }
}
