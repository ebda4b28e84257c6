// A finished run's line in notes/DREAMS.md: what it read, what it changed, what it left unresolved.
import type { DiaryEntry } from '../notes/dream-diary.js'
import { writeDiaryEntry } from '../notes/dream-diary.js'
import { localDayOf, localTimeOf } from '../time/local-day.js'
import type { DreamDeps } from './deps.js'
import type { RunRecord } from './types.js'

/** The diary entry of a dream (or undo) run; `read` and `changed` say it in a few words. */
export function diaryEntryOf(run: RunRecord, at: Date, timeZone: string): DiaryEntry {
  const window = run.firstDay && run.lastDay ? ` (${run.firstDay}..${run.lastDay})` : ''
  const files = run.changes?.files ?? run.changedFiles.length
  const lines = run.changes ? ` (+${run.changes.linesAdded} −${run.changes.linesRemoved})` : ''
  const changed =
    run.status === 'held'
      ? `nothing yet: ${files} file(s) held for review`
      : files > 0
        ? `${files} file(s)${lines}`
        : 'nothing'
  return {
    at: `${localDayOf(at, timeZone)} ${localTimeOf(at, timeZone)}`,
    kind: run.kind === 'undo' ? 'undo' : 'dream',
    mode: run.mode,
    runId: run.id,
    status: run.status,
    read: `${run.days} day(s)${window}, ${run.toolCalls.length} tool call(s)`,
    changed,
    unresolved: run.unresolvedDays.length
      ? run.unresolvedDays.map((d) => `${d.day} (${d.state})`).join(', ')
      : 'none',
    changedFiles: run.status === 'held' ? 0 : files,
    promoted: 0,
  }
}

/**
 * Appends `run`'s entry under the workspace lock the caller holds. The diary is a record, not memory: a
 * failure to write it is logged and never changes the run's outcome.
 */
export async function recordInDiary(
  run: RunRecord,
  deps: Pick<DreamDeps, 'paths' | 'config' | 'clock' | 'log'>,
): Promise<void> {
  try {
    const entry = diaryEntryOf(run, deps.clock.now(), deps.config.timezone)
    await writeDiaryEntry(deps.paths, entry, deps.config.memory.diaryBudgetBytes)
  } catch (error) {
    deps.log.warn({ err: error, runId: run.id }, 'could not append to notes/DREAMS.md')
  }
}
