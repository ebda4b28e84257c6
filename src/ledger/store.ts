// Per-file ledger rows in state.db (`run_changes`), read by `runs show --diff`, the dashboard, apply and undo.
import { migrate } from '../db/migrate.js'
import type { StateDb } from '../db/state.js'
import type { SecretKind } from '../secrets/types.js'
import { withholdSecrets } from '../secrets/withhold.js'
import type { FileChange } from './types.js'

const MIGRATIONS = [
  {
    version: 1,
    sql: `CREATE TABLE run_changes (
      run_id TEXT NOT NULL, path TEXT NOT NULL, change TEXT NOT NULL,
      before_sha256 TEXT, after_sha256 TEXT, before_bytes INTEGER NOT NULL, after_bytes INTEGER NOT NULL,
      lines_added INTEGER NOT NULL, lines_removed INTEGER NOT NULL, too_large INTEGER NOT NULL DEFAULT 0,
      diff TEXT NOT NULL DEFAULT '', PRIMARY KEY (run_id, path));`,
  },
]

interface ChangeRow {
  path: string
  change: FileChange['change']
  before_sha256: string | null
  after_sha256: string | null
  before_bytes: number
  after_bytes: number
  lines_added: number
  lines_removed: number
  too_large: number
  diff: string
}

export class LedgerStore {
  readonly #db: StateDb

  constructor(db: StateDb) {
    migrate(db, 'ledger', MIGRATIONS)
    this.#db = db
  }

  /**
   * Replaces the run's rows (a retried review step writes the same run again). A diff keeps the secret kinds the
   * user keeps (`keepKinds`), as the notes do, so a forget's diff still plays back onto its note for undo.
   */
  save(runId: string, changes: readonly FileChange[], keepKinds: readonly SecretKind[] = []): void {
    const drop = this.#db.prepare('DELETE FROM run_changes WHERE run_id = ?')
    const add = this.#db
      .prepare(`INSERT INTO run_changes (run_id, path, change, before_sha256, after_sha256, before_bytes,
      after_bytes, lines_added, lines_removed, too_large, diff) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    this.#db.transaction(() => {
      drop.run(runId)
      for (const c of changes) {
        add.run(
          runId,
          c.path,
          c.change,
          c.beforeSha256,
          c.afterSha256,
          c.beforeBytes,
          c.afterBytes,
          c.linesAdded,
          c.linesRemoved,
          c.tooLarge ? 1 : 0,
          // A diff shows removed lines too: one a dream cleaned of a secret must not keep it here.
          withholdSecrets(c.diff, { keepKinds }).text,
        )
      }
    })()
  }

  /**
   * Drops the diff lines `isForgotten` matches from every run's ledger but `exceptRunId`'s (a forget keeps its own
   * until the next dream, for undo); what is left is for reading only. Returns how many rows changed.
   */
  redactDiffs(isForgotten: (line: string) => boolean, exceptRunId: string): number {
    const rows = this.#db.prepare("SELECT run_id, path, diff FROM run_changes WHERE diff <> ''").all() as {
      run_id: string
      path: string
      diff: string
    }[]
    const save = this.#db.prepare('UPDATE run_changes SET diff = ? WHERE run_id = ? AND path = ?')
    let changed = 0
    for (const row of rows) {
      if (row.run_id === exceptRunId || !isForgotten(row.diff)) continue
      const kept = row.diff.split('\n').filter((line) => !isForgotten(line))
      save.run(kept.join('\n'), row.run_id, row.path)
      changed++
    }
    return changed
  }

  /** Keeps the run's hashes and counts but no diffs (they would hold text the user asked to forget). */
  dropDiffs(runId: string): void {
    this.#db.prepare("UPDATE run_changes SET diff = '' WHERE run_id = ?").run(runId)
  }

  /** The run's changes by path; empty for a run that changed nothing (or took no ledger). */
  list(runId: string): FileChange[] {
    const rows = this.#db
      .prepare('SELECT * FROM run_changes WHERE run_id = ? ORDER BY path')
      .all(runId) as ChangeRow[]
    return rows.map((row) => ({
      path: row.path,
      change: row.change,
      beforeSha256: row.before_sha256,
      afterSha256: row.after_sha256,
      beforeBytes: row.before_bytes,
      afterBytes: row.after_bytes,
      linesAdded: row.lines_added,
      linesRemoved: row.lines_removed,
      diff: row.diff,
      tooLarge: row.too_large === 1,
    }))
  }
}
