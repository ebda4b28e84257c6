// The vocabulary of a dream run: requests, statuses, gate outcomes and the stored record.
import type { DreamMode, TranscriptEntry, TurnUsage } from '../model/provider.js'
import type { ToolCallRecord } from '../tools/types.js'

export type { DreamMode }

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'degraded' | 'failed' | 'lost' | 'skipped' | 'cancelled'

/** The named result of the gate cascade; shared by logs, CLI, HTTP and chat. */
export type GateOutcome = 'disabled' | 'lock' | 'time' | 'sessions' | 'triggered'

export type StepName = 'lock' | 'backup' | 'seed' | 'channel' | 'model' | 'fallback' | 'index' | 'fts' | 'cleanup' | 'summary'

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
  errorCode: string | null
  errorMessage: string | null
  summary: string | null
  /** How many later triggers were folded into this run. */
  coalesced: number
  retryOf: string | null
  /** 1 for a first run, n for the (n-1)th retry in a chain. */
  attempt: number
}

export const FINISHED_STATUSES: readonly RunStatus[] = ['succeeded', 'degraded', 'failed', 'lost', 'skipped', 'cancelled']
