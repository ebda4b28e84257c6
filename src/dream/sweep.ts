// A promotion sweep, a mode of the dream lane: gate → lock → (backup) → phase → ledger → FTS → diary → record.
import { createBackup, type BackupInfo } from '../backup/create.js'
import { LockHeldError, errorMessage } from '../errors.js'
import { markDirty } from '../fts/journal.js'
import { refreshIndex } from '../fts/refresh.js'
import { writeDiaryEntry, type DiaryEntry } from '../notes/dream-diary.js'
import { acquireLock } from '../notes/lock.js'
import { compactRecall } from '../recall/compact.js'
import { planPromotion, writePromotions } from '../recall/promote.js'
import { recordPromotions } from '../recall/promotions.js'
import { themesAcrossDays } from '../recall/themes.js'
import { localDayOf, localTimeOf } from '../time/local-day.js'
import type { DreamDeps } from './deps.js'
import { checkGates } from './gates.js'
import { keepOrHold } from './review-step.js'
import { rollBackWrites } from './roll-back.js'
import { postSummary } from './summary.js'
import type { DreamRequest, RunRecord, SweepMode } from './types.js'

const DAY_MS = 86_400_000
/** A theme is a concept recalled on at least this many different days. */
const THEME_MIN_DAYS = 3
const THEMES_SHOWN = 8

/** What one phase did, in the words of the summary and the diary. */
interface PhaseResult {
  read: string
  changed: string
  unresolved: string
  /** Absolute paths of notes the phase wrote. */
  written: string[]
  promoted: number
  /** Runs once the changes are known to stay: promotions are recorded only when MEMORY.md keeps them. */
  onKept: () => void
}

/** Runs queued sweep `runId`. Like a dream, a sweep that fails is a record, not a throw. */
export async function runSweep(runId: string, request: DreamRequest, deps: DreamDeps): Promise<RunRecord> {
  const mode = request.mode as SweepMode
  deps.runs.markRunning(runId)
  // A sweep a person asked for ("Promote now") only needs the lock; a scheduled one passes the cascade.
  const gate = await checkGates(request.requested ? 'manual' : mode, deps)
  if (gate.outcome !== 'triggered')
    return finish(deps, runId, { status: 'skipped', gate: gate.outcome, reason: gate.reason })
  let lock: Awaited<ReturnType<typeof acquireLock>>
  try {
    lock = await acquireLock({
      file: deps.paths.lockFile,
      runId,
      clock: deps.clock,
      staleAfterMs: deps.config.dream.runTimeoutMs,
    })
  } catch (error) {
    if (error instanceof LockHeldError)
      return finish(deps, runId, { status: 'skipped', gate: 'lock', reason: error.message })
    return finish(deps, runId, { status: 'failed', reason: errorMessage(error) })
  }
  let backup: BackupInfo | null = null
  let written: string[] = []
  try {
    // Only the deep phase writes notes; it alone needs a backup to review and undo against.
    if (mode === 'deep') {
      backup = await createBackup({
        paths: deps.paths,
        mode,
        chatJid: request.chatJid,
        clock: deps.clock,
        keep: deps.config.backups.keep,
      })
      deps.runs.update(runId, { backupId: backup.id })
    }
    const phase = await runPhase(mode, deps)
    written = phase.written
    deps.runs.update(runId, { changedFiles: written })
    let held = false
    if (backup && written.length > 0) {
      const review = await keepOrHold({ runId, outcome: 'succeeded', backup, written }, deps)
      held = review.held
      markDirty(deps.state, deps.paths.workspace, written)
      await refreshIndex({ state: deps.state, paths: deps.paths, config: deps.config })
    }
    if (!held) {
      phase.onKept()
      await appendDiary(deps, runId, mode, phase)
    }
    const summary = `Promotion sweep (${mode}) ${held ? 'is held for review' : 'finished'}: read ${phase.read}; changed ${phase.changed}; unresolved: ${phase.unresolved}.`
    return await finish(deps, runId, { status: held ? 'held' : 'succeeded', reason: gate.reason, summary })
  } catch (error) {
    const rolledBack = backup ? await rollBackWrites(deps.paths.workspace, backup, written) : null
    deps.log.error({ err: error, runId }, 'promotion sweep failed')
    const reason = [errorMessage(error), rolledBack].filter(Boolean).join('; ')
    return finish(deps, runId, { status: 'failed', reason })
  } finally {
    await lock.release()
  }
}

async function runPhase(mode: SweepMode, deps: DreamDeps): Promise<PhaseResult> {
  const now = deps.clock.now()
  const settings = deps.config.recall
  if (mode === 'light') {
    // Collect and dedupe: fold old events into per-chunk totals; the plan counts what is pending.
    const compacted = compactRecall(deps.state, {
      before: new Date(now.getTime() - settings.compactAfterDays * DAY_MS),
    })
    const plan = planPromotion(deps.state, { now, settings })
    return {
      read: `${plan.candidates.length} recalled chunk(s)`,
      changed: `nothing in notes; ${compacted.events} old event(s) folded into ${compacted.chunks} chunk total(s)`,
      unresolved: `${plan.selected.length} chunk(s) ready for the next deep sweep`,
      written: [],
      promoted: 0,
      onKept: () => undefined,
    }
  }
  if (mode === 'rem') {
    const themes = themesAcrossDays(deps.state, { minDays: THEME_MIN_DAYS, limit: THEMES_SHOWN })
    const listed = themes.map((t) => `${t.concept} (${t.days} days)`).join(', ')
    return {
      read: `recall across days: ${themes.length} theme(s)${listed ? `: ${listed}` : ''}`,
      changed: 'nothing',
      unresolved: 'none',
      written: [],
      promoted: 0,
      onKept: () => undefined,
    }
  }
  const preset = deps.settings.dreamingPreset(deps.config.sweeps.mode)
  const plan = planPromotion(deps.state, { now, settings, preset })
  const result = await writePromotions(plan, deps)
  const waiting = plan.candidates.filter((c) => c.gate !== 'pass' && c.gate !== 'promoted').length
  return {
    read: `${plan.candidates.length} recalled chunk(s) scored with the ${preset} preset`,
    changed: result.written.length
      ? `MEMORY.md: ${result.written.length} promotion(s)`
      : 'nothing (no chunk passed every gate)',
    unresolved: `${waiting} chunk(s) below the gates${result.skipped.length ? `, ${result.skipped.length} skipped` : ''}`,
    written: result.written.length ? [result.file] : [],
    promoted: result.written.length,
    onKept: () => recordPromotions(deps.state, result.records),
  }
}

async function appendDiary(
  deps: DreamDeps,
  runId: string,
  mode: SweepMode,
  phase: PhaseResult,
): Promise<void> {
  const at = deps.clock.now()
  const entry: DiaryEntry = {
    at: `${localDayOf(at, deps.config.timezone)} ${localTimeOf(at, deps.config.timezone)}`,
    kind: 'sweep',
    mode,
    runId,
    status: 'succeeded',
    read: phase.read,
    changed: phase.changed,
    unresolved: phase.unresolved,
    changedFiles: phase.written.length,
    promoted: phase.promoted,
  }
  try {
    await writeDiaryEntry(deps.paths, entry, deps.config.memory.diaryBudgetBytes)
  } catch (error) {
    deps.log.warn({ err: error, runId }, 'could not append to notes/DREAMS.md')
  }
}

async function finish(
  deps: DreamDeps,
  runId: string,
  outcome: {
    status: RunRecord['status']
    gate?: RunRecord['gate']
    reason?: string | null
    summary?: string
  },
): Promise<RunRecord> {
  const summary = outcome.summary ?? `Promotion sweep ${outcome.status}: ${outcome.reason ?? ''}`.trim()
  const record = deps.runs.close(runId, { ...outcome, gate: outcome.gate ?? 'triggered', summary })
  await postSummary(record, deps)
  deps.onEvent?.({ type: 'finished', run: record })
  return record
}
