// Reads of the stored index state: dir rows, file rows (all, per dir, per path, racy, a sweep slice), meta.
import type Database from 'better-sqlite3'
import type { StateDb } from '../db/state.js'
import type { DirRow, FileRow } from './types.js'

type Statement = Database.Statement

const cache = new WeakMap<StateDb, Map<string, Statement>>()

/** A prepared statement, prepared once per open state.db handle. */
export function statement(state: StateDb, sql: string): Statement {
  let byText = cache.get(state)
  if (!byText) cache.set(state, (byText = new Map()))
  let prepared = byText.get(sql)
  if (!prepared) byText.set(sql, (prepared = state.prepare(sql)))
  return prepared
}

const FILE_COLUMNS = `id, path, dir, size, mtime_ms AS mtimeMs, ctime_ms AS ctimeMs, ino, hash,
  checked_at_ms AS checkedAtMs, racy AS isRacy`

export function loadDirs(state: StateDb): DirRow[] {
  return statement(
    state,
    'SELECT path, mtime_ms AS mtimeMs, ctime_ms AS ctimeMs, ino, racy AS isRacy FROM fts_dirs',
  ).all() as DirRow[]
}

/** Every indexed file in one query (full walks compare against this instead of a query per file). */
export function loadAllFiles(state: StateDb): Map<string, FileRow> {
  const rows = statement(state, `SELECT ${FILE_COLUMNS} FROM fts_files`).all() as FileRow[]
  return new Map(rows.map((row) => [row.path, row]))
}

/** The indexed files directly inside `dir`. */
export function loadFilesInDir(state: StateDb, dir: string): FileRow[] {
  return statement(state, `SELECT ${FILE_COLUMNS} FROM fts_files WHERE dir = ?`).all(dir) as FileRow[]
}

export function loadFile(state: StateDb, path: string): FileRow | undefined {
  const sql = `SELECT ${FILE_COLUMNS} FROM fts_files WHERE path = ?`
  return statement(state, sql).get(path) as FileRow | undefined
}

/** Files read so soon after their last write that an equal stat cannot vouch for their content. */
export function loadRacyFiles(state: StateDb): FileRow[] {
  return statement(state, `SELECT ${FILE_COLUMNS} FROM fts_files WHERE racy = 1`).all() as FileRow[]
}

/** The next `count` files in path order after `after`, wrapping round: one step of the rolling sweep. */
export function loadSweepSlice(state: StateDb, after: string, count: number): FileRow[] {
  if (count <= 0) return []
  const next = statement(state, `SELECT ${FILE_COLUMNS} FROM fts_files WHERE path > ? ORDER BY path LIMIT ?`)
  const rows = next.all(after, count) as FileRow[]
  if (rows.length < count && after !== '') {
    const wrapped = next.all('', count - rows.length) as FileRow[]
    const seen = new Set(rows.map((row) => row.path))
    rows.push(...wrapped.filter((row) => !seen.has(row.path)))
  }
  return rows
}

export function countFiles(state: StateDb): number {
  return (statement(state, 'SELECT count(*) AS n FROM fts_files').get() as { n: number }).n
}

export function readMeta(state: StateDb, key: string): string | undefined {
  const sql = 'SELECT value FROM fts_meta WHERE key = ?'
  const row = statement(state, sql).get(key) as { value: string } | undefined
  return row?.value
}

/** The range of paths strictly inside directory `dir` ('' is the workspace itself). */
export function subtreeRange(dir: string): [from: string, to: string] {
  // '0' is the code point after '/', so [dir/, dir0) holds exactly the paths below dir.
  return dir === '' ? ['', '\u{10FFFF}'] : [`${dir}/`, `${dir}0`]
}
