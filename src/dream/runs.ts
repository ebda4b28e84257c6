// Run records in state.db: open, progress, close, coalesce, list — the audit trail that outlives the dream channel.
import { randomHex } from '../random-hex.js'
import type { Clock } from '../clock.js'
import { DreamlaneError, type ErrorCode } from '../errors.js'
import { migrate } from '../db/migrate.js'
import type { StateDb } from '../db/state.js'
import type { ChangeTotals, LossFlag } from '../ledger/types.js'
import { EMPTY_USAGE, type TranscriptEntry, type TurnUsage } from '../model/provider.js'
import type { ToolCallRecord } from '../tools/types.js'
import type {
  DreamRequest,
  GateOutcome,
  HeldOutcome,
  RunKind,
  RunRecord,
  RunStatus,
  StepTiming,
  UnresolvedDay,
} from './types.js'

const MIGRATIONS = [
  {
    version: 1,
    sql: `CREATE TABLE runs (
      id TEXT PRIMARY KEY, mode TEXT NOT NULL, chat_jid TEXT NOT NULL, days INTEGER NOT NULL,
      first_day TEXT, last_day TEXT, time_zone TEXT NOT NULL, status TEXT NOT NULL, gate TEXT, reason TEXT,
      provider TEXT, model TEXT, created_at TEXT NOT NULL, started_at TEXT, finished_at TEXT,
      steps_json TEXT NOT NULL DEFAULT '[]', usage_json TEXT NOT NULL DEFAULT '{}',
      tool_calls_json TEXT NOT NULL DEFAULT '[]', transcript_json TEXT NOT NULL DEFAULT '[]',
      changed_files_json TEXT NOT NULL DEFAULT '[]', backup_id TEXT, error_code TEXT, error_message TEXT,
      summary TEXT, coalesced INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX runs_created ON runs (created_at);
    CREATE INDEX runs_status ON runs (status);`,
  },
  {
    version: 2,
    sql: `ALTER TABLE runs ADD COLUMN retry_of TEXT;
      ALTER TABLE runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;`,
  },
  {
    version: 3,
    sql: `ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'dream';
      ALTER TABLE runs ADD COLUMN undo_of TEXT;
      ALTER TABLE runs ADD COLUMN undone_by TEXT;
      ALTER TABLE runs ADD COLUMN changes_json TEXT;
      ALTER TABLE runs ADD COLUMN loss_flags_json TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE runs ADD COLUMN hold_reasons_json TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE runs ADD COLUMN held_outcome TEXT;
      ALTER TABLE runs ADD COLUMN reviewed_at TEXT;`,
  },
  {
    version: 4,
    sql: `ALTER TABLE runs ADD COLUMN unresolved_days_json TEXT NOT NULL DEFAULT '[]';`,
  },
]

interface RunRow {
  id: string
  mode: RunRecord['mode']
  chat_jid: string
  days: number
  first_day: string | null
  last_day: string | null
  time_zone: string
  status: RunStatus
  gate: GateOutcome | null
  reason: string | null
  provider: string | null
  model: string | null
  created_at: string
  started_at: string | null
  finished_at: string | null
  steps_json: string
  usage_json: string
  tool_calls_json: string
  transcript_json: string
  changed_files_json: string
  backup_id: string | null
  error_code: string | null
  error_message: string | null
  summary: string | null
  coalesced: number
  retry_of: string | null
  attempt: number
  kind: RunKind
  undo_of: string | null
  undone_by: string | null
  changes_json: string | null
  loss_flags_json: string
  hold_reasons_json: string
  held_outcome: HeldOutcome | null
  reviewed_at: string | null
  unresolved_days_json: string
}

function toRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    mode: row.mode,
    chatJid: row.chat_jid,
    days: row.days,
    firstDay: row.first_day,
    lastDay: row.last_day,
    timeZone: row.time_zone,
    status: row.status,
    gate: row.gate,
    reason: row.reason,
    provider: row.provider,
    model: row.model,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    steps: JSON.parse(row.steps_json) as StepTiming[],
    usage: { ...EMPTY_USAGE, ...(JSON.parse(row.usage_json) as Partial<TurnUsage>) },
    toolCalls: JSON.parse(row.tool_calls_json) as ToolCallRecord[],
    transcript: JSON.parse(row.transcript_json) as TranscriptEntry[],
    changedFiles: JSON.parse(row.changed_files_json) as string[],
    backupId: row.backup_id,
    errorCode: row.error_code as ErrorCode | null,
    errorMessage: row.error_message,
    summary: row.summary,
    coalesced: row.coalesced,
    retryOf: row.retry_of,
    attempt: row.attempt,
    kind: row.kind,
    undoOf: row.undo_of,
    undoneBy: row.undone_by,
    changes: row.changes_json ? (JSON.parse(row.changes_json) as ChangeTotals) : null,
    lossFlags: JSON.parse(row.loss_flags_json) as LossFlag[],
    holdReasons: JSON.parse(row.hold_reasons_json) as string[],
    heldOutcome: row.held_outcome,
    reviewedAt: row.reviewed_at,
    unresolvedDays: JSON.parse(row.unresolved_days_json) as UnresolvedDay[],
  }
}

/** Fields a finished run sets. */
export interface RunOutcome {
  status: RunStatus
  gate?: GateOutcome
  reason?: string | null
  summary?: string | null
  errorCode?: ErrorCode | null
  errorMessage?: string | null
}

/** What a running run updates as it goes. */
export interface RunProgress {
  firstDay?: string
  lastDay?: string
  provider?: string
  model?: string | null
  steps?: StepTiming[]
  usage?: TurnUsage
  toolCalls?: readonly ToolCallRecord[]
  transcript?: readonly TranscriptEntry[]
  changedFiles?: readonly string[]
  backupId?: string
  changes?: ChangeTotals
  lossFlags?: readonly LossFlag[]
  holdReasons?: readonly string[]
  unresolvedDays?: readonly UnresolvedDay[]
}

/** Which runs `list` returns: newest first, at most `limit`, of these statuses and kind. */
export interface RunFilter {
  limit?: number
  status?: RunStatus[]
  kind?: RunKind
}

export class RunStore {
  readonly #db: StateDb
  readonly #clock: Clock
  readonly #timeZone: string

  constructor(db: StateDb, clock: Clock, timeZone: string) {
    migrate(db, 'runs', MIGRATIONS)
    this.#db = db
    this.#clock = clock
    this.#timeZone = timeZone
  }

  /** A new run in `queued`. Ids sort by creation time. */
  open(request: DreamRequest): RunRecord {
    const now = this.#clock.now()
    const id = `run-${now.toISOString().replace(/[-:.]/g, '')}-${randomHex(3)}`
    const attempt = request.retryOf ? this.get(request.retryOf).attempt + 1 : 1
    this.#db
      .prepare(
        `INSERT INTO runs (id, mode, chat_jid, days, time_zone, status, created_at, retry_of, attempt)
        VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?)`,
      )
      .run(
        id,
        request.mode,
        request.chatJid,
        request.days,
        this.#timeZone,
        now.toISOString(),
        request.retryOf ?? null,
        attempt,
      )
    return this.get(id)
  }

  get(id: string): RunRecord {
    const row = this.#db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined
    if (!row) throw new DreamlaneError('RUN_NOT_FOUND', `no run with id "${id}" (see \`dreamlane runs\`)`)
    return toRecord(row)
  }

  markRunning(id: string): RunRecord {
    this.#db
      .prepare("UPDATE runs SET status = 'running', started_at = ? WHERE id = ?")
      .run(this.#clock.now().toISOString(), id)
    return this.get(id)
  }

  /** Saves progress so a crash mid-run still leaves steps, tool calls and usage behind. */
  update(id: string, progress: RunProgress): void {
    const sets: string[] = []
    const values: unknown[] = []
    const put = (column: string, value: unknown): void => {
      sets.push(`${column} = ?`)
      values.push(value)
    }
    if (progress.firstDay !== undefined) put('first_day', progress.firstDay)
    if (progress.lastDay !== undefined) put('last_day', progress.lastDay)
    if (progress.provider !== undefined) put('provider', progress.provider)
    if (progress.model !== undefined) put('model', progress.model)
    if (progress.steps) put('steps_json', JSON.stringify(progress.steps))
    if (progress.usage) put('usage_json', JSON.stringify(progress.usage))
    if (progress.toolCalls) put('tool_calls_json', JSON.stringify(progress.toolCalls))
    if (progress.transcript) put('transcript_json', JSON.stringify(progress.transcript))
    if (progress.changedFiles) put('changed_files_json', JSON.stringify(progress.changedFiles))
    if (progress.backupId !== undefined) put('backup_id', progress.backupId)
    if (progress.changes) put('changes_json', JSON.stringify(progress.changes))
    if (progress.lossFlags) put('loss_flags_json', JSON.stringify(progress.lossFlags))
    if (progress.holdReasons) put('hold_reasons_json', JSON.stringify(progress.holdReasons))
    if (progress.unresolvedDays) put('unresolved_days_json', JSON.stringify(progress.unresolvedDays))
    if (sets.length === 0) return
    this.#db.prepare(`UPDATE runs SET ${sets.join(', ')} WHERE id = ?`).run(...values, id)
  }

  close(id: string, outcome: RunOutcome): RunRecord {
    this.#db
      .prepare(
        `UPDATE runs SET status = ?, gate = COALESCE(?, gate), reason = ?, summary = ?, error_code = ?,
        error_message = ?, finished_at = ? WHERE id = ?`,
      )
      .run(
        outcome.status,
        outcome.gate ?? null,
        outcome.reason ?? null,
        outcome.summary ?? null,
        outcome.errorCode ?? null,
        outcome.errorMessage ?? null,
        this.#clock.now().toISOString(),
        id,
      )
    return this.get(id)
  }

  /**
   * Marks a running run `held` as soon as its result is staged, before the workspace is put back, so a crash
   * in between leaves a held run (apply and discard both finish the job) rather than a lost one.
   */
  markHeld(id: string, outcome: HeldOutcome): RunRecord {
    this.#db.prepare("UPDATE runs SET status = 'held', held_outcome = ? WHERE id = ?").run(outcome, id)
    return this.get(id)
  }

  /** A reviewed run's new status: applied (its held outcome), discarded, or undone by `undoneBy`. */
  settle(
    id: string,
    status: HeldOutcome | 'discarded' | 'undone',
    undoneBy: string | null = null,
  ): RunRecord {
    this.#db
      .prepare('UPDATE runs SET status = ?, reviewed_at = ?, undone_by = COALESCE(?, undone_by) WHERE id = ?')
      .run(status, this.#clock.now().toISOString(), undoneBy, id)
    return this.get(id)
  }

  /** A run record for undoing `target`, already `running`; it shares the target's chat and window. */
  openUndo(target: RunRecord): RunRecord {
    const now = this.#clock.now().toISOString()
    const id = `undo-${now.replace(/[-:.]/g, '')}-${randomHex(3)}`
    this.#db
      .prepare(
        `INSERT INTO runs (id, mode, chat_jid, days, first_day, last_day, time_zone, status, gate, created_at,
        started_at, kind, undo_of) VALUES (?, ?, ?, ?, ?, ?, ?, 'running', 'triggered', ?, ?, 'undo', ?)`,
      )
      .run(
        id,
        target.mode,
        target.chatJid,
        target.days,
        target.firstDay,
        target.lastDay,
        this.#timeZone,
        now,
        now,
        target.id,
      )
    return this.get(id)
  }

  /**
   * Rewrites every string of every record's tool calls, transcript, summary and reason through `redact` (what a
   * forget must not leave in the logs either); returns how many records changed.
   */
  redactRecords(redact: (text: string) => string): number {
    const rows = this.#db
      .prepare('SELECT id, tool_calls_json, transcript_json, summary, reason FROM runs')
      .all() as Pick<RunRow, 'id' | 'tool_calls_json' | 'transcript_json' | 'summary' | 'reason'>[]
    const save = this.#db.prepare(
      'UPDATE runs SET tool_calls_json = ?, transcript_json = ?, summary = ?, reason = ? WHERE id = ?',
    )
    let changed = 0
    for (const row of rows) {
      const next = {
        calls: JSON.stringify(redactStrings(JSON.parse(row.tool_calls_json), redact)),
        transcript: JSON.stringify(redactStrings(JSON.parse(row.transcript_json), redact)),
        summary: row.summary === null ? null : redact(row.summary),
        reason: row.reason === null ? null : redact(row.reason),
      }
      if (
        next.calls === row.tool_calls_json &&
        next.transcript === row.transcript_json &&
        next.summary === row.summary &&
        next.reason === row.reason
      )
        continue
      save.run(next.calls, next.transcript, next.summary, next.reason, row.id)
      changed++
    }
    return changed
  }

  noteCoalesced(id: string): RunRecord {
    this.#db.prepare('UPDATE runs SET coalesced = coalesced + 1 WHERE id = ?').run(id)
    return this.get(id)
  }

  /** Newest first. */
  list(options: RunFilter = {}): RunRecord[] {
    const statuses = options.status ?? []
    const clauses: string[] = []
    if (statuses.length) clauses.push(`status IN (${statuses.map(() => '?').join(', ')})`)
    if (options.kind) clauses.push('kind = ?')
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''
    const kind = options.kind ? [options.kind] : []
    const rows = this.#db
      .prepare(`SELECT * FROM runs ${where} ORDER BY created_at DESC, id DESC LIMIT ?`)
      .all(...statuses, ...kind, options.limit ?? 20) as RunRow[]
    return rows.map(toRecord)
  }

  latest(): RunRecord | null {
    return this.list({ limit: 1 })[0] ?? null
  }

  /**
   * The newest run that finished `succeeded` — "last consolidated" only advances on success. With `mode`, the
   * newest of that mode only (the `time` gate counts from the last successful auto dream).
   */
  lastSucceeded(mode?: RunRecord['mode']): RunRecord | null {
    if (!mode) {
      // Sweeps run on the dream lane too, but only a dream consolidates messages.
      const row = this.#db
        .prepare(
          `SELECT * FROM runs WHERE status = 'succeeded' AND kind = 'dream' AND mode IN ('manual', 'auto', 'bootstrap')
          ORDER BY created_at DESC, id DESC LIMIT 1`,
        )
        .get() as RunRow | undefined
      return row ? toRecord(row) : null
    }
    const row = this.#db
      .prepare(
        `SELECT * FROM runs WHERE status = 'succeeded' AND kind = 'dream' AND mode = ?
        ORDER BY created_at DESC, id DESC LIMIT 1`,
      )
      .get(mode) as RunRow | undefined
    return row ? toRecord(row) : null
  }

  /** Marks runs left `running`/`queued` by a dead process as `lost`; returns their ids. */
  markAbandonedLost(reason: string): string[] {
    const rows = this.#db.prepare("SELECT id FROM runs WHERE status IN ('running', 'queued')").all() as {
      id: string
    }[]
    for (const row of rows) this.close(row.id, { status: 'lost', reason })
    return rows.map((row) => row.id)
  }
}

function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)]))
}
