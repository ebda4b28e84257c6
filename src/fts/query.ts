// Runs one sanitised query against the index: words (AND, then OR), then trigram-indexed substrings.
import type { StateDb } from '../db/state.js'
import { likePatterns, matchAll, matchAny, type QueryPlan } from './sanitize.js'
import { markOccurrences } from './snippet.js'
import { statement } from './store.js'

/** A chunk that matched, before its line and snippet are cut. */
export interface RawHit {
  path: string
  startLine: number
  /** The chunk with matches wrapped in MATCH_START/MATCH_END. */
  marked: string
  score: number
}

export interface QueryScope {
  limit: number
  /** '' for all paths. */
  pathPrefix: string
}

/** Substring matches carry no rank from SQLite: rank at most this many matching chunks in JS. */
const SUBSTRING_SCAN_ROWS = 2_000

/** Best hits first; ties broken by path and line so the order is stable. */
export function runQuery(state: StateDb, plan: QueryPlan, scope: QueryScope): RawHit[] {
  if (plan.terms.length > 0) {
    const all = queryWords(state, matchAll(plan), scope)
    if (all.length > 0) return all
    if (plan.terms.length > 1) {
      const any = queryWords(state, matchAny(plan), scope)
      if (any.length > 0) return any
    }
  }
  return querySubstrings(state, plan, scope)
}

function queryWords(state: StateDb, match: string, scope: QueryScope): RawHit[] {
  // bm25() is lower-is-better; SearchHit.score is higher-is-better, hence the sign.
  const sql = `SELECT f.path AS path, c.start_line AS startLine, -bm25(fts_text) AS score,
      highlight(fts_text, 0, char(1), char(2)) AS marked
    FROM fts_text JOIN fts_chunks c ON c.id = fts_text.rowid JOIN fts_files f ON f.id = c.file_id
    WHERE fts_text MATCH ? AND substr(f.path, 1, ?) = ?
    ORDER BY bm25(fts_text), f.path, c.start_line LIMIT ?`
  const prefix = scope.pathPrefix
  return statement(state, sql).all(match, charCount(prefix), prefix, scope.limit) as RawHit[]
}

/** Chunks containing every piece verbatim (case-insensitive), ranked by how often they occur. */
function querySubstrings(state: StateDb, plan: QueryPlan, scope: QueryScope): RawHit[] {
  const patterns = likePatterns(plan)
  if (patterns.length === 0) return []
  // Plain LIKE on the trigram table is answered from its index (pieces under 3 characters scan it instead).
  const likes = patterns.map(() => 't.body LIKE ?').join(' AND ')
  const sql = `SELECT f.path AS path, c.start_line AS startLine, c.body AS body
    FROM fts_trigram t JOIN fts_chunks c ON c.id = t.rowid JOIN fts_files f ON f.id = c.file_id
    WHERE ${likes} AND substr(f.path, 1, ?) = ? ORDER BY f.path, c.start_line LIMIT ?`
  const prefix = scope.pathPrefix
  const rows = statement(state, sql).all(...patterns, charCount(prefix), prefix, SUBSTRING_SCAN_ROWS) as {
    path: string
    startLine: number
    body: string
  }[]
  const needles = plan.pieces.map((piece) => piece.toLowerCase())
  return rows
    .filter((row) => {
      const lower = row.body.toLowerCase()
      return needles.every((needle) => lower.includes(needle))
    })
    .map((row) => {
      const { marked, count } = markOccurrences(row.body, plan.pieces)
      return { path: row.path, startLine: row.startLine, marked, score: count }
    })
    .sort((a, b) => b.score - a.score || compareText(a.path, b.path) || a.startLine - b.startLine)
    .slice(0, scope.limit)
}

/** SQLite's substr() counts code points, not UTF-16 units. */
function charCount(text: string): number {
  return [...text].length
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
