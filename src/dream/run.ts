// One dream, top to bottom: lock → backup → seed → channel + model turn → index → review → FTS → cleanup → summary.
import { LedgerStore } from '../ledger/store.js'
import { PrivacyStore, withSecretsWithheld } from '../db/privacy-store.js'
import { DreamlaneError, LockHeldError, errorMessage, type ErrorCode } from '../errors.js'
import { createBackup, type BackupInfo } from '../backup/create.js'
import { openMessagesDb } from '../db/messages.js'
import { markDirty } from '../fts/journal.js'
import { refreshIndex } from '../fts/refresh.js'
import { keepOrHold } from './review-step.js'
import { seedDailyNotes } from '../notes/seed.js'
import { dayWindow, startOfLocalDay, type DayWindow } from '../time/local-day.js'
import { openDreamChannel, type DreamChannel } from './channel.js'
import type { DreamDeps } from './deps.js'
import { describeFactKeys, withFactsLine } from './fact-keys-pass.js'
import { indexOrRefuse } from './refusals.js'
import { rollBackWrites } from './roll-back.js'
import { checkGates } from './gates.js'
import { acquireLock } from '../notes/lock.js'
import { consolidate, type StepRunner } from './consolidate.js'
import { recordInDiary } from './diary-entry.js'
import { describeCleaned, withholdSecretsInNotes } from './secrets-pass.js'
import { composeSummary, postSummary } from './summary.js'
import type { DreamRequest, RunRecord, StepTiming } from './types.js'

/** A dry run rehearses on a scratch copy the caller made: no gate to pass, nothing to compete with. */
const DRY_RUN_GATE = { outcome: 'triggered', reason: 'dry run on a scratch copy' } as const

/** Runs the queued run `runId` to completion. Never throws for a dream that merely failed: that is a record. */
export async function runDream(runId: string, request: DreamRequest, deps: DreamDeps): Promise<RunRecord> {
  const changed = new Set<string>()
  const window = request.endDay
    ? dayWindow(startOfLocalDay(request.endDay, deps.config.timezone), request.days, deps.config.timezone)
    : dayWindow(deps.clock.now(), request.days, deps.config.timezone)
  deps.runs.markRunning(runId)
  deps.runs.update(runId, { firstDay: window.firstDay, lastDay: window.lastDay })
  const step = stepRecorder(runId, deps)

  const gate = request.dryRun ? DRY_RUN_GATE : await checkGates(request.mode, deps)
  if (gate.outcome !== 'triggered')
    return finish(deps, runId, request, { status: 'skipped', gate: gate.outcome, reason: gate.reason }, '')
  deps.log.info({ runId, gate: gate.outcome }, gate.reason)

  let lock: Awaited<ReturnType<typeof acquireLock>>
  try {
    lock = await step(
      'lock',
      () =>
        acquireLock({
          file: deps.paths.lockFile,
          runId,
          clock: deps.clock,
          staleAfterMs: deps.config.dream.runTimeoutMs,
        }),
      (held) => (held.reaped ? `reaped stale lock of ${held.reaped.runId}` : 'acquired'),
    )
  } catch (error) {
    if (error instanceof LockHeldError)
      return finish(deps, runId, request, { status: 'skipped', gate: 'lock', reason: error.message }, '')
    // No lock taken (say the disk is full): nothing was touched, and the run still closes.
    deps.log.error({ err: error, runId }, 'dream failed before it took the lock')
    return finish(deps, runId, request, failureOf(error, null), '')
  }

  let channel: DreamChannel | null = null
  let backupTaken: BackupInfo | null = null
  // The model turn's engine (a worker thread loading its libraries) gets ready while the backup and seeding run.
  deps.provider.prepare?.()
  try {
    const backup = await step(
      'backup',
      () =>
        createBackup({
          paths: deps.paths,
          mode: request.mode,
          chatJid: request.chatJid,
          clock: deps.clock,
          keep: deps.config.backups.keep,
        }),
      (info) => `${info.id} (${info.fileCount} files)`,
    )
    backupTaken = backup
    deps.runs.update(runId, { backupId: backup.id })

    // After the backup, so the run can be undone; before seeding, so nothing this dream reads holds a secret.
    const cleaned = await step(
      'secrets',
      () => withholdSecretsInNotes(deps.paths, deps.state, deps.config.privacy.keepSecretKinds),
      (notes) => `${notes.length} note(s) cleaned`,
    )
    for (const note of cleaned) changed.add(note.file)
    markDirty(
      deps.state,
      deps.paths.workspace,
      cleaned.map((note) => note.file),
    )
    const cleanedLine = describeCleaned(cleaned, deps.paths.workspace)

    const seeded = await step(
      'seed',
      () => seedWindow(window, deps),
      (result) => describeSeed(result),
    )
    for (const file of seeded.changed) changed.add(file)
    markDirty(deps.state, deps.paths.workspace, seeded.changed)

    channel = await step(
      'channel',
      async () =>
        openDreamChannel(deps.messages, request.mode, request.chatJid, deps.clock.now(), (error) =>
          deps.log.warn(
            { err: error, runId },
            'dream channel write failed; the run record keeps the transcript',
          ),
        ),
      (c) => c.jid,
    )
    const pass = await consolidate(runId, request, window, seeded, channel, step, deps)
    for (const file of pass.written) changed.add(file)

    const indexed = await step(
      'index',
      () => indexOrRefuse(deps, [...changed]),
      (result) =>
        result.refused ??
        `${describeFactKeys(result.facts)}; ${result.refreshed} fact file(s) refreshed, ${result.pointers} pointer file(s) updated`,
    )
    for (const file of indexed.files) changed.add(file)
    if (indexed.refused) {
      pass.status = 'degraded'
      pass.reason = [pass.reason, `index pass refused: ${indexed.refused}`].filter(Boolean).join('; ')
    }
    // The ledger and loss guard decide whether the result stays; a held one is staged and the notes put back.
    const review = await step(
      'review',
      () => keepOrHold({ runId, outcome: pass.status, backup, written: [...changed] }, deps),
      (r) => r.describe,
    )
    markDirty(deps.state, deps.paths.workspace, [...changed])
    if (!request.dryRun) {
      await step(
        'fts',
        () => refreshIndex({ state: deps.state, paths: deps.paths, config: deps.config }),
        (r) => `${r.added} added, ${r.updated} updated, ${r.removed} removed`,
      )
    }
    deps.runs.update(runId, { changedFiles: [...changed].sort() })
    // A forget can be undone until the next dream: this is it, so their diffs (the forgotten text) go now.
    if (!request.dryRun) sealForgets(deps.state)
    const openChannel = channel
    await step(
      'cleanup',
      async () => openChannel.remove(),
      (n) => `${n} channel message(s) removed`,
    )
    channel = null
    return await finish(
      deps,
      runId,
      request,
      { status: review.held ? 'held' : pass.status, reason: pass.reason },
      [withFactsLine(pass.engineText, indexed.facts).trim(), cleanedLine].filter(Boolean).join('\n'),
    )
  } catch (error) {
    deps.runs.update(runId, { changedFiles: [...changed].sort() })
    const rolledBack = backupTaken
      ? await rollBackWrites(deps.paths.workspace, backupTaken, [...changed])
      : null
    if (deps.signal?.aborted) {
      deps.log.warn({ runId }, 'dream cancelled')
      const reason = `cancelled (shutdown)${rolledBack ? `; ${rolledBack}` : ''}`
      return finish(deps, runId, request, { status: 'cancelled', reason }, '')
    }
    deps.log.error({ err: error, runId }, 'dream failed')
    return finish(deps, runId, request, failureOf(error, rolledBack), '')
  } finally {
    channel?.remove()
    await lock.release()
  }
}

/** A failed run's outcome: the error's code and words, and what became of the notes it had written. */
function failureOf(error: unknown, rolledBack: string | null) {
  const message = errorMessage(error)
  const errorCode: ErrorCode = error instanceof DreamlaneError ? error.code : 'INTERNAL'
  const reason = rolledBack ? `${message}; ${rolledBack}` : message
  return { status: 'failed' as const, reason, errorCode, errorMessage: message }
}

/** Times each named step into the run record and tells onEvent, so a crash still leaves the steps behind. */
function stepRecorder(runId: string, deps: DreamDeps): StepRunner {
  const steps: StepTiming[] = []
  return async (name, work, detail, isOk) => {
    const started = deps.clock.now()
    const t0 = performance.now()
    deps.onEvent?.({ type: 'step', runId, step: name, phase: 'start' })
    try {
      const value = await work()
      const timing = {
        name,
        startedAt: started.toISOString(),
        durationMs: Math.round(performance.now() - t0),
        ok: isOk?.(value) ?? true,
        detail: detail?.(value),
      }
      steps.push(timing)
      deps.runs.update(runId, { steps })
      deps.onEvent?.({
        type: 'step',
        runId,
        step: name,
        phase: 'end',
        ok: timing.ok,
        detail: timing.detail,
        durationMs: timing.durationMs,
      })
      return value
    } catch (error) {
      steps.push({
        name,
        startedAt: started.toISOString(),
        durationMs: Math.round(performance.now() - t0),
        ok: false,
        detail: errorMessage(error),
      })
      deps.runs.update(runId, { steps })
      deps.onEvent?.({
        type: 'step',
        runId,
        step: name,
        phase: 'end',
        ok: false,
        detail: errorMessage(error),
      })
      throw error
    }
  }
}

/**
 * Seeding reads on its own connection so a chat turn writing meanwhile never meets a busy statement; a window of
 * 2,000 messages or more is read on the message reader thread, so a chat turn never waits behind the reads either.
 */
async function seedWindow(window: DayWindow, deps: DreamDeps) {
  const reader = openMessagesDb(deps.paths.messagesDb, { readonly: true })
  const { paths, config, messageReader } = deps
  const privacy = withSecretsWithheld(new PrivacyStore(deps.state).rules(config.memory.excludeChats), config)
  try {
    return await seedDailyNotes({
      ...{ paths, config, messages: reader, window, privacy },
      ...(messageReader ? { gatherElsewhere: (plan) => messageReader.seedDays(plan) } : {}),
    })
  } finally {
    reader.close()
  }
}

function describeSeed(result: Awaited<ReturnType<typeof seedDailyNotes>>): string {
  const count = (outcome: string) => result.days.filter((day) => day.outcome === outcome).length
  const problems = result.problems.length
    ? `, ${result.problems.length} problem(s): ${result.problems.map((p) => `${p.path}: ${p.reason}`).join('; ')}`
    : ''
  const warnings = result.warnings.length ? `; warning: ${result.warnings.join('; ')}` : ''
  return `${result.days.length} day(s) with messages: ${count('created')} created, ${count('updated')} updated, ${count('unchanged')} unchanged${problems}${warnings}`
}

async function finish(
  deps: DreamDeps,
  runId: string,
  request: DreamRequest,
  outcome: {
    status: RunRecord['status']
    gate?: RunRecord['gate']
    reason?: string | null
    errorCode?: ErrorCode
    errorMessage?: string
  },
  engineText: string,
): Promise<RunRecord> {
  const provisional = deps.runs.get(runId)
  const summary = composeSummary(
    { ...provisional, ...outcome, gate: outcome.gate ?? provisional.gate, reason: outcome.reason ?? null },
    engineText,
    deps.paths.workspace,
    deps.config.privacy.keepSecretKinds,
  )
  const record = deps.runs.close(runId, { ...outcome, gate: outcome.gate ?? 'triggered', summary })
  // A run whose changes were kept leaves one diary line, written while the lock is still held. Held, failed
  // and cancelled runs leave notes/ exactly as they found it; their run record is their account.
  if ((record.status === 'succeeded' || record.status === 'degraded') && !request.dryRun)
    await recordInDiary(record, deps)
  await postSummary(record, deps, request.dryRun === true)
  deps.onEvent?.({ type: 'finished', run: record })
  return record
}

function sealForgets(state: DreamDeps['state']): void {
  const ledger = new LedgerStore(state)
  for (const id of new PrivacyStore(state).sealActive()) ledger.dropDiffs(id)
}
