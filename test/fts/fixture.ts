// FTS test worlds: a workspace and its state.db, plus helpers to age files or edit them like outside tools.
import { readdirSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { onTestFinished } from 'vitest'
import { openStateDb, type StateDb } from '../../src/db/state.js'
import type { ConfigFile } from '../../src/config/schema.js'
import { makeWorkspace, type TestWorkspace } from '../helpers/workspace.js'

export interface IndexWorld extends TestWorkspace {
  state: StateDb
  /** Absolute path of a workspace-relative one. */
  abs(rel: string): string
}

/**
 * A workspace holding `files` and an open state.db. Every file and dir is aged by a minute, as files that
 * existed before the test would be: freshly written ones are "racy" and re-hashed on purpose.
 */
export function makeIndexWorld(files: Record<string, string>, flags: ConfigFile = {}): IndexWorld {
  const ws = makeWorkspace(files, flags)
  const state = openStateDb(ws.paths.stateDb)
  onTestFinished(() => {
    if (state.open) state.close()
  })
  ageTree(ws.dir)
  return { ...ws, state, abs: (rel) => join(ws.dir, ...rel.split('/')) }
}

/** Sets mtimes of everything under `dir` (not hidden) `seconds` into the past; dirs after their contents. */
export function ageTree(dir: string, seconds = 60): void {
  const past = new Date(Date.now() - seconds * 1000)
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue
    const full = join(dir, entry.name)
    if (entry.isDirectory()) ageTree(full, seconds)
    else if (entry.isFile()) utimesSync(full, past, past)
  }
  utimesSync(dir, past, past)
}

/** Writes like an editor saving in place: same inode, so the directory's mtime does not move. */
export function editInPlace(file: string, content: string): void {
  const dirBefore = statSync(dirname(file)).mtimeMs
  writeFileSync(file, content)
  if (statSync(dirname(file)).mtimeMs !== dirBefore) throw new Error('in-place edit moved the dir mtime')
}

/** Creates a file (and its dirs). */
export function writeNew(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, content)
}

/** Throws unless both FTS5 indexes agree exactly with the chunk rows they index (external content). */
export function checkIntegrity(state: StateDb): void {
  state.exec(`INSERT INTO fts_text (fts_text, rank) VALUES ('integrity-check', 1);
    INSERT INTO fts_trigram (fts_trigram, rank) VALUES ('integrity-check', 1)`)
}

/** What the index holds, read straight from its tables: file count, pending dirty paths, last refresh. */
export function indexStats(state: StateDb): { files: number; dirtyPending: number; lastRefreshAt?: string } {
  const count = (sql: string) => (state.prepare(sql).get() as { n: number }).n
  const meta = state.prepare("SELECT value FROM fts_meta WHERE key = 'last_refresh_at'").get() as
    { value: string } | undefined
  return {
    files: count('SELECT count(*) AS n FROM fts_files'),
    dirtyPending: count('SELECT count(*) AS n FROM fts_dirty'),
    ...(meta ? { lastRefreshAt: meta.value } : {}),
  }
}
