// The FTS index's tables in state.db (component 'fts'): files, chunks, two FTS5 indexes, dirs, journal.
import { migrate, type Migration } from '../db/migrate.js'
import type { StateDb } from '../db/state.js'

/**
 * Chunks live in a plain table; fts_text (words, porter-stemmed, diacritics folded) and fts_trigram
 * (substrings) are external-content indexes over it, so every chunk's text is stored once and snippets
 * come from the same row the match did. apply.ts keeps them in step itself: with triggers every insert
 * runs in a statement savepoint, which makes FTS5 flush its pending terms per row (2.4x slower rebuilds).
 * fts_trigram keeps no positions (detail=none): it only serves as the index behind `body LIKE '%…%'`,
 * which SQLite then re-checks, and it costs a third of a positional trigram index to build.
 */
export const FTS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE fts_files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  dir TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ctime_ms REAL NOT NULL,
  ino REAL NOT NULL,
  hash TEXT NOT NULL,
  checked_at_ms REAL NOT NULL,
  racy INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX fts_files_dir ON fts_files (dir);
CREATE INDEX fts_files_racy ON fts_files (racy) WHERE racy = 1;
CREATE TABLE fts_chunks (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  start_line INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX fts_chunks_file ON fts_chunks (file_id);
CREATE VIRTUAL TABLE fts_text USING fts5(body, content='fts_chunks', content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE fts_trigram USING fts5(body, content='fts_chunks', content_rowid='id',
  tokenize='trigram', detail=none);
CREATE TABLE fts_dirs (
  path TEXT PRIMARY KEY,
  mtime_ms REAL NOT NULL,
  ctime_ms REAL NOT NULL,
  ino REAL NOT NULL,
  racy INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE fts_dirty (seq INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL UNIQUE);
CREATE TABLE fts_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
`,
  },
]

/** Bump when chunking or hashing changes: a stored index of another format is wiped and rebuilt. */
export const INDEX_FORMAT = '1'

const migrated = new WeakSet<StateDb>()

/** Creates or upgrades the FTS tables once per open state.db handle. */
export function ensureFtsSchema(state: StateDb): void {
  if (migrated.has(state)) return
  migrate(state, 'fts', FTS_MIGRATIONS)
  migrated.add(state)
}
