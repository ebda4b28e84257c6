// The seam between interactive searches and recall tracking: which chat asked, what search_workspace served.
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { ResolvedConfig } from '../config/schema.js'
import type { StateDb } from '../db/state.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { recallRecorder } from '../recall/events.js'
import type { RecalledHit } from '../tools/types.js'

/** One interactive search as the recall store wants it. */
export interface RecallEvent {
  chatJid: string
  query: string
  hits: readonly RecalledHit[]
  at: Date
}

/** Told every search_workspace result served to an interactive (never a dream) turn. */
export type RecallSink = (event: RecallEvent) => void

/**
 * Records interactive recall in the workspace's state.db (src/recall), one recorder per chat. A failure to
 * record is logged, never turned into a failed search: the user's answer matters more than the statistic.
 */
export function recallSinkFor(
  dreamlane: {
    state: StateDb
    paths: Pick<WorkspacePaths, 'workspace'>
    config: Pick<ResolvedConfig, 'timezone' | 'recall'>
    /** A chat kept out of memory (excluded, or private now) records no recall: it must leave no signal either. */
    chatPrivacy?: (chatJid: string) => { excluded: boolean; privateSince: string | null }
  },
  clock: Clock,
  log?: Logger,
): RecallSink {
  const recorders = new Map<string, ReturnType<typeof recallRecorder>>()
  return (event) => {
    const privacy = dreamlane.chatPrivacy?.(event.chatJid)
    if (privacy && (privacy.excluded || privacy.privateSince !== null)) return
    let record = recorders.get(event.chatJid)
    if (!record) {
      record = recallRecorder({
        state: dreamlane.state,
        workspace: dreamlane.paths.workspace,
        chatJid: event.chatJid,
        clock,
        timeZone: dreamlane.config.timezone,
        compactAfterDays: dreamlane.config.recall.compactAfterDays,
        onError: (error) => log?.warn({ err: error, chatJid: event.chatJid }, 'recording recall failed'),
      })
      recorders.set(event.chatJid, record)
    }
    record(event.query, event.hits)
  }
}
