// state.db's privacy tables: tombstones of what was forgotten on request, and the private stretches of chats.
import type { PrivacyRules, PrivateSpan } from '../privacy/rules.js'
import { migrate } from './migrate.js'
import type { StateDb } from './state.js'

const MIGRATIONS = [
  {
    version: 1,
    sql: `CREATE TABLE forget_tombstones (
      id TEXT PRIMARY KEY, what TEXT NOT NULL, phrases_json TEXT NOT NULL, chat_jid TEXT NOT NULL,
      created_at TEXT NOT NULL, backup_id TEXT, changed_files_json TEXT NOT NULL DEFAULT '[]',
      backups_purged INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'active', undone_at TEXT);
    CREATE TABLE private_spans (
      id INTEGER PRIMARY KEY, chat_jid TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT);
    CREATE INDEX private_spans_chat ON private_spans (chat_jid, ended_at);`,
  },
  {
    version: 2,
    // Set once a dream ran after the forget: it can no longer be undone, so its ledger keeps no diff.
    sql: `ALTER TABLE forget_tombstones ADD COLUMN sealed INTEGER NOT NULL DEFAULT 0;`,
  },
]

/** `active`: later dreams skip it; `undone`: the forget was taken back, its phrases apply no more. */
export type TombstoneStatus = 'active' | 'undone'

export interface Tombstone {
  /** `forget-<time>-<hex>`; also the forget's id in the change ledger. */
  id: string
  /** What the user asked to forget, as they said it. */
  what: string
  /** The phrases matched: the request's, plus the values of the facts it removed. */
  phrases: string[]
  chatJid: string
  createdAt: string
  /** The backup taken just before the forget (what undo restores from). */
  backupId: string | null
  changedFiles: string[]
  /** The backups were rewritten without it (and the ledger keeps no diff): there is nothing to undo from. */
  backupsPurged: boolean
  status: TombstoneStatus
  undoneAt: string | null
}

interface TombstoneRow {
  id: string
  what: string
  phrases_json: string
  chat_jid: string
  created_at: string
  backup_id: string | null
  changed_files_json: string
  backups_purged: number
  status: TombstoneStatus
  undone_at: string | null
}

interface SpanRow {
  chat_jid: string
  started_at: string
  ended_at: string | null
}

export class PrivacyStore {
  readonly #db: StateDb

  constructor(db: StateDb) {
    migrate(db, 'privacy', MIGRATIONS)
    this.#db = db
  }

  addTombstone(tombstone: Omit<Tombstone, 'status' | 'undoneAt'>): Tombstone {
    this.#db
      .prepare(
        `INSERT INTO forget_tombstones (id, what, phrases_json, chat_jid, created_at, backup_id, changed_files_json,
        backups_purged) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        tombstone.id,
        tombstone.what,
        JSON.stringify(tombstone.phrases),
        tombstone.chatJid,
        tombstone.createdAt,
        tombstone.backupId,
        JSON.stringify(tombstone.changedFiles),
        tombstone.backupsPurged ? 1 : 0,
      )
    return this.getTombstone(tombstone.id) as Tombstone
  }

  getTombstone(id: string): Tombstone | null {
    const row = this.#db.prepare('SELECT * FROM forget_tombstones WHERE id = ?').get(id) as
      TombstoneRow | undefined
    return row ? toTombstone(row) : null
  }

  /** Newest first. */
  listTombstones(status?: TombstoneStatus): Tombstone[] {
    const rows = (
      status
        ? this.#db
            .prepare('SELECT * FROM forget_tombstones WHERE status = ? ORDER BY created_at DESC, id DESC')
            .all(status)
        : this.#db.prepare('SELECT * FROM forget_tombstones ORDER BY created_at DESC, id DESC').all()
    ) as TombstoneRow[]
    return rows.map(toTombstone)
  }

  markUndone(id: string, at: Date): void {
    this.#db
      .prepare("UPDATE forget_tombstones SET status = 'undone', undone_at = ? WHERE id = ?")
      .run(at.toISOString(), id)
  }

  /** Active forgets a dream has not yet sealed, marked sealed now; their ids (whose ledger diffs go). */
  sealActive(): string[] {
    const ids = (
      this.#db.prepare("SELECT id FROM forget_tombstones WHERE status = 'active' AND sealed = 0").all() as {
        id: string
      }[]
    ).map((row) => row.id)
    const seal = this.#db.prepare('UPDATE forget_tombstones SET sealed = 1 WHERE id = ?')
    for (const id of ids) seal.run(id)
    return ids
  }

  /** Every phrase still under a tombstone. */
  forgottenPhrases(): string[] {
    return [...new Set(this.listTombstones('active').flatMap((tombstone) => tombstone.phrases))]
  }

  /** Starts a private stretch of `chatJid` at `at`; false when one is already open. */
  startPrivate(chatJid: string, at: Date): boolean {
    if (this.openSpan(chatJid)) return false
    this.#db
      .prepare('INSERT INTO private_spans (chat_jid, started_at) VALUES (?, ?)')
      .run(chatJid, at.toISOString())
    return true
  }

  /** Ends `chatJid`'s open private stretch at `at`; false when none was open. */
  endPrivate(chatJid: string, at: Date): boolean {
    const result = this.#db
      .prepare('UPDATE private_spans SET ended_at = ? WHERE chat_jid = ? AND ended_at IS NULL')
      .run(at.toISOString(), chatJid)
    return result.changes > 0
  }

  openSpan(chatJid: string): PrivateSpan | null {
    const row = this.#db
      .prepare('SELECT * FROM private_spans WHERE chat_jid = ? AND ended_at IS NULL')
      .get(chatJid) as SpanRow | undefined
    return row ? toSpan(row) : null
  }

  /** Every private stretch, oldest first. */
  listSpans(): PrivateSpan[] {
    const rows = this.#db.prepare('SELECT * FROM private_spans ORDER BY started_at, id').all() as SpanRow[]
    return rows.map(toSpan)
  }

  /** What dreams must not see now: `excludeChats` from config with the stretches and tombstones kept here. */
  rules(excludeChats: readonly string[]): PrivacyRules {
    return {
      excludeChats: [...excludeChats],
      privateSpans: this.listSpans(),
      forgotten: this.forgottenPhrases(),
    }
  }
}

function toTombstone(row: TombstoneRow): Tombstone {
  return {
    id: row.id,
    what: row.what,
    phrases: JSON.parse(row.phrases_json) as string[],
    chatJid: row.chat_jid,
    createdAt: row.created_at,
    backupId: row.backup_id,
    changedFiles: JSON.parse(row.changed_files_json) as string[],
    backupsPurged: row.backups_purged === 1,
    status: row.status,
    undoneAt: row.undone_at,
  }
}

function toSpan(row: SpanRow): PrivateSpan {
  return { chatJid: row.chat_jid, from: row.started_at, until: row.ended_at }
}

/** `rules` that also withhold secrets from what a dream reads, keeping the kinds the user keeps (`privacy`). */
export function withSecretsWithheld(
  rules: PrivacyRules,
  config: { privacy: { keepSecretKinds: readonly string[] }; timezone: string },
): PrivacyRules {
  return { ...rules, secrets: { keepKinds: [...config.privacy.keepSecretKinds], timeZone: config.timezone } }
}
