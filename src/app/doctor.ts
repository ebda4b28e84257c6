// `dreamlane doctor`: what is wrong with the workspace, config, messages DB and state, and how to fix each.
import Database from 'better-sqlite3'
import { existsSync, statSync } from 'node:fs'
import type { Clock } from '../clock.js'
import { resolveConfig } from '../config/resolve.js'
import type { ConfigFile, ResolvedConfig } from '../config/schema.js'
import { openMessagesDb } from '../db/messages.js'
import { ConfigError, DreamlaneError, errorMessage, type ErrorCode } from '../errors.js'
import { describeDeprecation } from '../model/deprecated.js'
import { describeLock, readLock, staleReason } from '../notes/lock.js'
import { workspacePaths, type WorkspacePaths } from '../notes/paths.js'
import { checkWorkspace, ok, problem, warning, type Finding } from './doctor-notes.js'

export type { Finding }

export interface DoctorSection {
  area: 'workspace' | 'config' | 'messages DB' | 'state'
  findings: Finding[]
}

export interface DoctorReport {
  /** No finding is a problem (warnings allowed). */
  healthy: boolean
  sections: DoctorSection[]
}

export interface DoctorInput {
  env: Record<string, string | undefined>
  flags: ConfigFile
  clock: Clock
}

/** Reads everything, changes nothing (the messages DB is opened read-only, state.db too). */
export async function diagnose(input: DoctorInput): Promise<DoctorReport> {
  let config: ResolvedConfig
  try {
    config = resolveConfig({ env: input.env, flags: input.flags })
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    const findings = error.issues.map((issue) =>
      problem(
        `${issue.key}: ${issue.message}`,
        'fix it in <data dir>/config.json, the DREAMLANE_* env var or the flag',
      ),
    )
    return report([{ area: 'config', findings }])
  }
  const paths = workspacePaths(config)
  return report([
    { area: 'workspace', findings: await checkWorkspace(paths) },
    { area: 'config', findings: checkConfig(config, input.env) },
    { area: 'messages DB', findings: checkMessagesDb(paths) },
    { area: 'state', findings: await checkState(paths, config, input.clock) },
  ])
}

function report(sections: DoctorSection[]): DoctorReport {
  const healthy = sections.every((section) => section.findings.every((f) => f.severity !== 'problem'))
  return { healthy, sections }
}

function checkConfig(config: ResolvedConfig, env: DoctorInput['env']): Finding[] {
  const findings = [ok(`settings resolved (time zone ${config.timezone})`)]
  const usesAnthropic = Boolean(env.ANTHROPIC_API_KEY) || config.dream.model !== undefined
  const model = config.dream.model ?? config.providers.anthropic.model
  const deprecated = usesAnthropic ? describeDeprecation(model) : null
  if (deprecated) findings.push(warning(deprecated, 'pick a current model id from the Anthropic model list'))
  return findings
}

const MESSAGES_DB_FIXES: Partial<Record<ErrorCode, string>> = {
  MESSAGES_DB_MISSING:
    '`dreamlane init` creates an empty one, `dreamlane import` fills it, or point --messages-db at yours',
  MESSAGES_DB_INVALID: "point --messages-db (or messagesDb in config.json) at the assistant's messages DB",
  MESSAGES_DB_SCHEMA: "point --messages-db (or messagesDb in config.json) at the assistant's messages DB",
  MESSAGES_DB_BUSY: 'wait for the process holding it to finish (or stop it), then run again',
}

function checkMessagesDb(paths: WorkspacePaths): Finding[] {
  try {
    const db = openMessagesDb(paths.messagesDb, { readonly: true, waitMs: 1000 })
    try {
      const { n } = db.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }
      const journal = String(db.db.pragma('journal_mode', { simple: true }))
      const found = [ok(`${paths.messagesDb}: ${n} message(s), journal mode ${journal}`)]
      if (n === 0)
        found.push(
          warning('the messages DB holds no messages yet', '`dreamlane import` or `dreamlane sample`'),
        )
      return found
    } finally {
      db.close()
    }
  } catch (error) {
    if (!(error instanceof DreamlaneError)) throw error
    return [problem(error.message, MESSAGES_DB_FIXES[error.code] ?? 'see the message')]
  }
}

async function checkState(paths: WorkspacePaths, config: ResolvedConfig, clock: Clock): Promise<Finding[]> {
  const findings: Finding[] = []
  if (existsSync(paths.backups) && !statSync(paths.backups).isDirectory())
    findings.push(problem(`${paths.backups} is a file, not a folder: dreams cannot back up`, `move it aside`))
  const holder = await readLock(paths.lockFile)
  const stale = holder ? staleReason(holder, { clock, staleAfterMs: config.dream.runTimeoutMs }) : null
  const restoring = holder?.runId.startsWith('restore-') ? holder.runId.slice('restore-'.length) : null
  if (holder && stale && restoring)
    findings.push(
      problem(
        `a restore of backup ${restoring} was interrupted (${stale}): the notes may be partly restored`,
        `run \`dreamlane backups restore ${restoring}\` again; the safety backup it took first is the newest ` +
          '`…-restore-…` one in `dreamlane backups list`',
      ),
    )
  else if (holder && stale)
    findings.push(warning(`stale dream.lock of ${describeLock(holder)}: ${stale}`, 'the next dream reaps it'))
  else if (holder) findings.push(ok(`a dream is running: ${describeLock(holder)}`))
  if (!existsSync(paths.stateDb)) return [...findings, ok('no state.db yet (created by the first command)')]
  try {
    const unfinished = unfinishedRuns(paths.stateDb)
    if (unfinished.length > 0 && (!holder || stale))
      findings.push(
        warning(
          `run(s) ${unfinished.join(', ')} marked running, but no process holds the lock`,
          'the next `dreamlane dream` or `serve` marks them lost',
        ),
      )
  } catch (error) {
    findings.push(
      problem(
        `${paths.stateDb} is unusable (${errorMessage(error)})`,
        'move it aside; a fresh one is created',
      ),
    )
  }
  return findings.length > 0 ? findings : [ok('state.db readable, no unfinished runs, no stale lock')]
}

function unfinishedRuns(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'runs'").get()
    if (!table) return []
    const rows = db.prepare("SELECT id FROM runs WHERE status IN ('queued', 'running')").all() as {
      id: string
    }[]
    return rows.map((row) => row.id)
  } finally {
    db.close()
  }
}
