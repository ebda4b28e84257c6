// What the API and pages show of a run record: a summary for lists, the full detail for one run.
import { isAbsolute, relative, sep } from 'node:path'
import type { RunRecord } from '../dream/types.js'
import type { ErrorCode } from '../errors.js'

export interface RunTokens {
  input: number
  output: number
  cacheRead: number
  cacheWrite: number
  total: number
}

export interface RunSummary {
  id: string
  /** 'undo' for a run that took a kept dream back (its mode and gate are the dream's, not its own). */
  kind: RunRecord['kind']
  undoOf: string | null
  mode: RunRecord['mode']
  status: RunRecord['status']
  gate: RunRecord['gate']
  reason: string | null
  chatJid: string
  days: number
  firstDay: string | null
  lastDay: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  /** Started to finished, or null while it has not both. */
  durationMs: number | null
  tokens: RunTokens
  provider: string | null
  model: string | null
  toolCallCount: number
  /** Workspace-relative, '/' separated. */
  changedFiles: string[]
  backupId: string | null
  retryOf: string | null
  attempt: number
  coalesced: number
  errorCode: ErrorCode | null
  summary: string | null
}

export interface RunDetail extends RunSummary {
  steps: RunRecord['steps']
  toolCalls: RunRecord['toolCalls']
  usage: RunRecord['usage']
  transcript: RunRecord['transcript']
}

const RUNNING: readonly RunRecord['status'][] = ['queued', 'running']

export function isRunActive(run: Pick<RunRecord, 'status'>): boolean {
  return RUNNING.includes(run.status)
}

export function summarizeRun(run: RunRecord, workspace: string): RunSummary {
  const started = run.startedAt ? Date.parse(run.startedAt) : null
  const finished = run.finishedAt ? Date.parse(run.finishedAt) : null
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = run.usage
  return {
    id: run.id,
    kind: run.kind,
    undoOf: run.undoOf,
    mode: run.mode,
    status: run.status,
    gate: run.gate,
    reason: run.reason,
    chatJid: run.chatJid,
    days: run.days,
    firstDay: run.firstDay,
    lastDay: run.lastDay,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationMs: started !== null && finished !== null ? Math.max(0, finished - started) : null,
    tokens: {
      input: inputTokens,
      output: outputTokens,
      cacheRead: cacheReadTokens,
      cacheWrite: cacheWriteTokens,
      total: inputTokens + outputTokens,
    },
    provider: run.provider,
    model: run.model,
    toolCallCount: run.toolCalls.length,
    changedFiles: run.changedFiles.map((file) => workspacePath(workspace, file)),
    backupId: run.backupId,
    retryOf: run.retryOf,
    attempt: run.attempt,
    coalesced: run.coalesced,
    errorCode: run.errorCode,
    summary: run.summary,
  }
}

export function detailRun(run: RunRecord, workspace: string): RunDetail {
  return {
    ...summarizeRun(run, workspace),
    steps: run.steps,
    toolCalls: run.toolCalls,
    usage: run.usage,
    transcript: run.transcript,
  }
}

/** `file` relative to the workspace with '/' separators (absolute paths outside it stay as they are). */
export function workspacePath(workspace: string, file: string): string {
  if (!isAbsolute(file)) return file.split(sep).join('/')
  const rel = relative(workspace, file)
  return rel.startsWith('..') || rel === '' ? file : rel.split(sep).join('/')
}
