// The dirty journal: dreamlane's writers name the files they changed; the next refresh reads exactly those.
import type { StateDb } from '../db/state.js'
import { ensureFtsSchema } from './schema.js'
import { toWorkspacePath } from './scope.js'
import { statement } from './store.js'

/**
 * Records that `absPaths` were written (or deleted) by dreamlane itself, e.g. by the dream tools, seeding or
 * restore. The next refresh reads each of them whatever its stat says, which also covers writes that land
 * within one timestamp tick of the previous version. Paths outside `workspace` are ignored.
 */
export function markDirty(state: StateDb, workspace: string, absPaths: string[]): void {
  ensureFtsSchema(state)
  const relPaths = absPaths
    .map((path) => toWorkspacePath(workspace, path))
    .filter((path) => path !== undefined)
  if (relPaths.length === 0) return
  // Delete then insert so a re-marked path gets a new, higher sequence number: a refresh that started
  // before this call only clears the entries it saw, never this newer mark.
  const drop = statement(state, 'DELETE FROM fts_dirty WHERE path = ?')
  const add = statement(state, 'INSERT INTO fts_dirty (path) VALUES (?)')
  state.transaction(() => {
    for (const path of relPaths) {
      drop.run(path)
      add.run(path)
    }
  })()
}

export interface JournalSnapshot {
  paths: string[]
  /** Highest sequence number read; the refresh's commit clears entries up to it. */
  maxSeq: number
}

export function readJournal(state: StateDb): JournalSnapshot {
  const rows = statement(state, 'SELECT seq, path FROM fts_dirty ORDER BY seq').all() as {
    seq: number
    path: string
  }[]
  return { paths: rows.map((row) => row.path), maxSeq: rows.at(-1)?.seq ?? 0 }
}
