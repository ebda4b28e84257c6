// The vocabulary of a dream run: requests, statuses, gate outcomes and the stored record.
import type { ErrorCode } from '../errors.js'
import type { BacklogState } from '../notes/backlog.js'
import type { ChangeTotals, LossFlag } from '../ledger/types.js'
import type { DreamMode, TranscriptEntry, TurnUsage } from '../model/provider.js'
import type { ToolCallRecord } from '../tools/types.js'

export type { DreamMode }

/** The promotion sweeps: light (collect, dedupe), deep (score, gate, promote), rem (themes across days). */
export const SWEEP_MODES = ['light', 'deep', 'rem'] as const
export type SweepMode = (typeof SWEEP_MODES)[number]

export function isSweepMode(mode: DreamMode): mode is SweepMode {
  return (SWEEP_MODES as readonly string[]).includes(mode)
}

/** The dreams proper: what consolidates messages into notes ("last consolidated" counts only these). */
export const DREAM_ONLY_MODES = ['manual', 'auto', 'bootstrap'] as const

/**
 * `held`: finished, its changes staged and the workspace left as it was until someone applies (→ its
 * outcome, succeeded or degraded) or discards it (`discarded`). `undone`: kept once, restored since.
 */
export type RunStatus =
  | 'queued'
  | 'running'
  | 'succeeded'
  | 'degraded'
  | 'failed'
  | 'lost'
  | 'skipped'
  | 'cancelled'
  | 'held'
  | 'discarded'
  | 'undone'

/** A dream, or the undo of one (recorded as a run of its own). */
export type RunKind = 'dream' | 'undo'

/** The status a held run takes when applied. */
export type HeldOutcome = 'succeeded' | 'degraded'

/** The named result of the gate cascade; shared by logs, CLI, HTTP and chat. */
export type GateOutcome = 'disabled' | 'lock' | 'time' | 'sessions' | 'signal' | 'triggered'

/** A window day whose daily note still needs work after a dream's model pass. */
export interface UnresolvedDay {
  day: string
  state: BacklogState
}

export type StepName =
  | 'lock'
  | 'backup'
  | 'secrets'
  | 'seed'
  | 'channel'
  | 'model'
  | 'fallback'
  | 'index'
  | 'review'
  | 'fts'
  | 'cleanup'
  | 'summary'

export interface StepTiming {
  name: StepName
  startedAt: string
  durationMs: number
  ok: boolean
  detail?: string
}

export interface DreamRequest {
  mode: DreamMode
  /** Originating chat; the summary goes back there (manual runs). */
  chatJid: string
  /** Window length in local days, ≥ 1. */
  days: number
  /** Last local day of the window (default: today). Retries reuse the original run's window. */
  endDay?: string
  /** The run this one retries. */
  retryOf?: string
  /** A rehearsal on a scratch copy: nothing is posted and the workspace is never touched. */
  dryRun?: boolean
  /** Asked for by a person (a sweep's "Promote now"): only the lock applies, as for a manual dream. */
  requested?: boolean
}

export interface RunRecord {
  id: string
  mode: DreamMode
  chatJid: string
  days: number
  firstDay: string | null
  lastDay: string | null
  timeZone: string
  status: RunStatus
  gate: GateOutcome | null
  /** Why a run was skipped, degraded or failed, in words. */
  reason: string | null
  provider: string | null
  model: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  steps: StepTiming[]
  usage: TurnUsage
  toolCalls: ToolCallRecord[]
  transcript: TranscriptEntry[]
  changedFiles: string[]
  backupId: string | null
  errorCode: ErrorCode | null
  errorMessage: string | null
  summary: string | null
  /** How many later triggers were folded into this run. */
  coalesced: number
  retryOf: string | null
  /** 1 for a first run, n for the (n-1)th retry in a chain. */
  attempt: number
  kind: RunKind
  /** For an undo run: the run it undid. */
  undoOf: string | null
  /** For a dream undone later: the undo run. */
  undoneBy: string | null
  /** The change ledger in numbers (per-file detail: LedgerStore); null before the review step ran. */
  changes: ChangeTotals | null
  /** Names, numbers and dates the loss guard saw vanish from memory/ (capped; see changes for counts). */
  lossFlags: LossFlag[]
  /** Why the run was held for review, in words; empty when its changes were kept. */
  holdReasons: string[]
  /** While held (and after): the status applying gives it. */
  heldOutcome: HeldOutcome | null
  /** When a held run was applied or discarded, or a kept one undone. */
  reviewedAt: string | null
  /** Window days still unresolved after the model pass (empty before it ran, and when every day is done). */
  unresolvedDays: UnresolvedDay[]
}

export const FINISHED_STATUSES: readonly RunStatus[] = [
  'succeeded',
  'degraded',
  'failed',
  'lost',
  'skipped',
  'cancelled',
  'held',
  'discarded',
  'undone',
]

/** The bot message a manual run's summary was stored as in its chat. */
export interface SummaryMessage {
  id: string
  chatJid: string
  sender: string
  senderName: string
  content: string
  /** ISO 8601 UTC. */
  timestamp: string
}

/** A finished run's summary as the host's chat transport receives it. */
export interface PostedSummary {
  runId: string
  mode: RunRecord['mode']
  chatJid: string
  status: RunRecord['status']
  text: string
  /** The message stored in the chat (manual runs that were not skipped); null when the summary was only logged. */
  message: SummaryMessage | null
}
