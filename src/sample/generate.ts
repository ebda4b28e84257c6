// `generateSample`: writes the synthetic messages DB (Maya's few weeks with her assistant) and lists its planted facts.
import { UsageError } from '../errors.js'
import type { MessagesDb } from '../db/messages.js'
import { isValidTimeZone, localDayOf } from '../time/local-day.js'
import { openFreshMessagesDb } from './fresh-db.js'
import { findBusyDays, layOutSample, type SampleLayout } from './layout.js'
import { CHAT_KEYS, SAMPLE_BRANCHES, SAMPLE_CHATS } from './persona.js'
import type { GenerateSampleInput, SampleResult } from './types.js'

export const DEFAULT_SAMPLE_DAYS = 21
/** Below this the older part of the story (before the last week) has no room. */
export const MIN_SAMPLE_DAYS = 10

/**
 * Writes a fresh sample messages DB at `input.file`. Deterministic: the same input gives the same rows.
 * All times are relative to `input.now`, in waking hours of `input.timeZone`, and never after `now`.
 */
export async function generateSample(input: GenerateSampleInput): Promise<SampleResult> {
  const days = input.days ?? DEFAULT_SAMPLE_DAYS
  if (!Number.isInteger(days) || days < MIN_SAMPLE_DAYS) {
    throw new UsageError(`sample days must be a whole number of at least ${MIN_SAMPLE_DAYS} (got ${days})`)
  }
  if (!isValidTimeZone(input.timeZone)) throw new UsageError(`unknown time zone "${input.timeZone}"`)
  if (Number.isNaN(input.now.getTime())) throw new UsageError('sample "now" is not a valid date')

  const layout = layOutSample({ now: input.now, timeZone: input.timeZone, days, seed: input.seed ?? 1 })
  const first = layout.messages[0]
  const last = layout.messages[layout.messages.length - 1]
  if (!first || !last) throw new UsageError('sample has no messages before "now"')

  const db = await openFreshMessagesDb(input.file, input.overwrite ?? false)
  let written: number
  try {
    written = writeLayout(db, layout)
  } finally {
    db.close()
  }
  return {
    chats: CHAT_KEYS.length,
    branches: SAMPLE_BRANCHES.length,
    messages: written,
    firstDay: localDayOf(new Date(first.timestamp), input.timeZone),
    lastDay: localDayOf(new Date(last.timestamp), input.timeZone),
    planted: layout.planted,
    mainChat: SAMPLE_CHATS.main.jid,
    busyDays: findBusyDays(layout.messages, input.timeZone),
  }
}

/** Chats, branches and messages in one transaction: a crash leaves an empty DB, never half a story. */
function writeLayout(db: MessagesDb, layout: SampleLayout): number {
  return db.db.transaction(() => {
    for (const key of CHAT_KEYS) db.upsertChat(SAMPLE_CHATS[key].jid, SAMPLE_CHATS[key].name)
    for (const { chat, ...branch } of SAMPLE_BRANCHES) {
      const createdAt = layout.firstMessageAt[chat]
      db.upsertBranch(createdAt ? { ...branch, createdAt } : branch)
    }
    return db.insertMessages(layout.messages)
  })()
}
