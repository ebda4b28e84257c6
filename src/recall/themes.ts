// REM themes: concepts recalled on several different days, across every chunk that carries them.
import type { StateDb } from '../db/state.js'
import { parseList, recallStatement } from './store.js'

export interface Theme {
  concept: string
  /** Distinct local days on which a chunk tagged with it was recalled. */
  days: number
  /** Distinct chunks tagged with it. */
  chunks: number
}

/**
 * Concepts recalled on at least `minDays` distinct days (live events and compacted totals), most days first,
 * at most `limit`. Reads state.db only: a theme is a finding for the diary, not a memory write.
 */
export function themesAcrossDays(state: StateDb, options: { minDays: number; limit: number }): Theme[] {
  const byConcept = new Map<string, { days: Set<string>; chunks: Set<string> }>()
  const note = (chunkKey: string, conceptsJson: string, days: readonly string[]) => {
    for (const concept of parseList(conceptsJson)) {
      const entry = byConcept.get(concept) ?? { days: new Set<string>(), chunks: new Set<string>() }
      for (const day of days) entry.days.add(day)
      entry.chunks.add(chunkKey)
      byConcept.set(concept, entry)
    }
  }
  const live = recallStatement(
    state,
    `SELECT e.chunk_key AS chunkKey, c.concepts AS concepts, group_concat(DISTINCT e.day) AS days
    FROM recall_events e JOIN recall_chunks c ON c.chunk_key = e.chunk_key GROUP BY e.chunk_key`,
  ).all() as { chunkKey: string; concepts: string; days: string }[]
  for (const row of live) note(row.chunkKey, row.concepts, row.days.split(','))
  const compacted = recallStatement(
    state,
    `SELECT t.chunk_key AS chunkKey, c.concepts AS concepts, t.days AS days
    FROM recall_totals t JOIN recall_chunks c ON c.chunk_key = t.chunk_key`,
  ).all() as { chunkKey: string; concepts: string; days: string }[]
  for (const row of compacted) note(row.chunkKey, row.concepts, parseList(row.days))
  return [...byConcept]
    .map(([concept, entry]) => ({ concept, days: entry.days.size, chunks: entry.chunks.size }))
    .filter((theme) => theme.days >= options.minDays)
    .sort((a, b) => b.days - a.days || b.chunks - a.chunks || a.concept.localeCompare(b.concept))
    .slice(0, options.limit)
}
