// Runs one sanitised query against the index: words (AND, then OR), then trigram substrings, then LIKE.
import type { StateDb } from '../db/state.js'
import { likePatterns, matchAll, matchAny, matchSubstrings, type QueryPlan } from './sanitize.js'
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

/** LIKE has no index: scan at most this many matching chunks before ranking them. */
const LIKE_SCAN_ROWS = 2_000

/** Best hits first; ties broken by path and line so the order is stable. */
export function runQuery(state: StateDb, plan: QueryPlan, scope: QueryScope): RawHit[] {
  if (plan.terms.length > 0) {
    const all = queryFts(state, 'fts_text', matchAll(plan), scope)
    if (all.length > 0) return all
    if (plan.terms.length > 1) {
      const any = queryFts(state, 'fts_text', matchAny(plan), scope)
      if (any.length > 0) return any
    }
  }
  const substrings = matchSubstrings(plan)
  if (substrings !== undefined) return queryFts(state, 'fts_trigram', substrings, scope)
  return queryLike(state, plan, scope)
}

type FtsTable = 'fts_text' | 'fts_trigram'

function queryFts(state: StateDb, table: FtsTable, match: string, scope: QueryScope): RawHit[] {
  // bm25() is lower-is-better; SearchHit.score is higher-is-better, hence the sign.
  const sql = `SELECT f.path AS path, c.start_line AS startLine, -bm25(${table}) AS score,
      highlight(${table}, 0, char(1), char(2)) AS marked
    FROM ${table} JOIN fts_chunks c ON c.id = ${table}.rowid JOIN fts_files f ON f.id = c.file_id
    WHERE ${table} MATCH ? AND substr(f.path, 1, ?) = ?
    ORDER BY bm25(${table}), f.path, c.start_line LIMIT ?`
  const prefix = scope.pathPrefix
  return statement(state, sql).all(match, charCount(prefix), prefix, scope.limit) as RawHit[]
}

function queryLike(state: StateDb, plan: QueryPlan, scope: QueryScope): RawHit[] {
  const patterns = likePatterns(plan)
  if (patterns.length === 0) return []
  const likes = patterns.map(() => "c.body LIKE ? ESCAPE '\\'").join(' AND ')
  const sql = `SELECT f.path AS path, c.start_line AS startLine, c.body AS body
    FROM fts_chunks c JOIN fts_files f ON f.id = c.file_id
    WHERE ${likes} AND substr(f.path, 1, ?) = ? ORDER BY f.path, c.start_line LIMIT ?`
  const prefix = scope.pathPrefix
  const rows = statement(state, sql).all(...patterns, charCount(prefix), prefix, LIKE_SCAN_ROWS) as {
    path: string
    startLine: number
    body: string
  }[]
  return rows
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
