// Persistent switches set from chat or CLI (e.g. `/dreaming off`), kept in state.db across restarts.
import { migrate } from '../db/migrate.js'
import type { StateDb } from '../db/state.js'
import { DREAMING_MODES, type DreamingMode } from '../config/choices.js'

const MIGRATIONS = [
  {
    version: 1,
    sql: 'CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL)',
  },
]

export class SettingsStore {
  readonly #db: StateDb

  constructor(db: StateDb) {
    migrate(db, 'settings', MIGRATIONS)
    this.#db = db
  }

  get(key: string): string | null {
    const row = this.#db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
      { value: string } | undefined
    return row?.value ?? null
  }

  set(key: string, value: string, at: Date): void {
    this.#db
      .prepare(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
        ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(key, value, at.toISOString())
  }

  /** AutoDream on/off: a choice made in chat/CLI wins over config until changed again. */
  autoDreamEnabled(configDefault: boolean): boolean {
    const stored = this.get('autoDream.enabled')
    return stored === null ? configDefault : stored === 'on'
  }

  setAutoDreamEnabled(enabled: boolean, at: Date): void {
    this.set('autoDream.enabled', enabled ? 'on' : 'off', at)
  }

  /** The promotion sweeps' mode (`/dreaming core|deep|rem|off`): a choice made in chat/CLI wins over config. */
  dreamingMode(configDefault: DreamingMode): DreamingMode {
    const stored = this.get('sweeps.mode')
    return (DREAMING_MODES as readonly string[]).includes(stored ?? '')
      ? (stored as DreamingMode)
      : configDefault
  }

  /** The recall preset deep sweeps promote with: the mode, or `core` while sweeps are off. */
  dreamingPreset(configDefault: DreamingMode): Exclude<DreamingMode, 'off'> {
    const mode = this.dreamingMode(configDefault)
    return mode === 'off' ? 'core' : mode
  }

  setDreamingMode(mode: DreamingMode, at: Date): void {
    this.set('sweeps.mode', mode, at)
  }
}
