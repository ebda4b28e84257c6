// The recall tables in state.db (events, chunks, compacted totals, promotions) and cached statements over them.
import type Database from 'better-sqlite3'
import { migrate, type Migration } from '../db/migrate.js'
import type { StateDb } from '../db/state.js'

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      -- One row per recalled chunk: what it said when first recalled, and its concept tags (JSON array).
      CREATE TABLE recall_chunks (
        chunk_key TEXT PRIMARY KEY,
        path TEXT NOT NULL,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        excerpt TEXT NOT NULL,
        concepts TEXT NOT NULL,
        first_seen_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      -- Append-only: one row per hit served to an interactive turn. Never updated, only compacted away.
      CREATE TABLE recall_events (
        id INTEGER PRIMARY KEY,
        chunk_key TEXT NOT NULL,
        query_hash TEXT NOT NULL,
        score REAL NOT NULL,
        relevance REAL NOT NULL,
        day TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        chat_jid TEXT NOT NULL
      );
      CREATE INDEX recall_events_at ON recall_events (at_ms);
      -- Events past the compaction horizon, folded per chunk; query_hashes and days are capped JSON arrays.
      CREATE TABLE recall_totals (
        chunk_key TEXT PRIMARY KEY,
        recalls INTEGER NOT NULL,
        relevance_sum REAL NOT NULL,
        score_sum REAL NOT NULL,
        first_at_ms INTEGER NOT NULL,
        last_at_ms INTEGER NOT NULL,
        first_day TEXT NOT NULL,
        last_day TEXT NOT NULL,
        query_hashes TEXT NOT NULL,
        days TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE recall_promotions (
        chunk_key TEXT PRIMARY KEY,
        path TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        marker_id TEXT NOT NULL,
        score REAL NOT NULL,
        promoted_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX recall_promotions_content ON recall_promotions (path, content_hash);
    `,
  },
]

const migrated = new WeakSet<StateDb>()
const cache = new WeakMap<StateDb, Map<string, Database.Statement>>()

/** Creates or upgrades the recall tables once per open handle. */
export function ensureRecallSchema(state: StateDb): void {
  if (migrated.has(state)) return
  migrate(state, 'recall', MIGRATIONS)
  migrated.add(state)
}

/** A prepared statement over the recall tables, prepared once per handle (the schema is ensured first). */
export function recallStatement(state: StateDb, sql: string): Database.Statement {
  ensureRecallSchema(state)
  let byText = cache.get(state)
  if (!byText) cache.set(state, (byText = new Map()))
  let prepared = byText.get(sql)
  if (!prepared) byText.set(sql, (prepared = state.prepare(sql)))
  return prepared
}

/** A JSON array column read back; anything else (a hand-edited row) counts as empty. */
export function parseList(json: string): string[] {
  const value: unknown = JSON.parse(json)
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}
