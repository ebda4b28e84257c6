// Per-component schema migrations in state.db: each concern owns its own numbered list of steps.
import type { Db } from './open.js'

/** One schema step; `version` starts at 1 and grows by one per step. */
export interface Migration {
  version: number
  sql: string
}

/**
 * Applies the steps of `component` not yet recorded in `schema_versions`, each in its own transaction.
 * Components are independent, so adding a feature never renumbers another's steps.
 */
export function migrate(db: Db, component: string, migrations: readonly Migration[]): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_versions (
    component TEXT PRIMARY KEY, version INTEGER NOT NULL, applied_at TEXT NOT NULL)`)
  const readVersion = db.prepare('SELECT version FROM schema_versions WHERE component = ?')
  const versionNow = (): number =>
    (readVersion.get(component) as { version: number } | undefined)?.version ?? 0
  const record = db.prepare(`INSERT INTO schema_versions (component, version, applied_at) VALUES (?, ?, ?)
    ON CONFLICT(component) DO UPDATE SET version = excluded.version, applied_at = excluded.applied_at`)
  for (const step of [...migrations].sort((a, b) => a.version - b.version)) {
    if (step.version <= versionNow()) continue
    // IMMEDIATE takes the write lock up front (waiting on busy_timeout), so processes starting together queue
    // instead of failing on a read→write upgrade; the version is re-read inside, so a step runs exactly once.
    db.transaction(() => {
      const current = versionNow()
      if (step.version <= current) return
      if (step.version !== current + 1) throw new Error(`${component}: migration ${current + 1} is missing`)
      db.exec(step.sql)
      record.run(component, step.version, new Date().toISOString())
    }).immediate()
  }
  return versionNow()
}
