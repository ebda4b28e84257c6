// The promotions ledger in state.db: what went into MEMORY.md, when, and with what score.
import type { StateDb } from '../db/state.js'
import { recallStatement } from './store.js'

export interface PromotionRecord {
  chunkKey: string
  path: string
  contentHash: string
  /** The id in the chunk's MEMORY.md marker. */
  markerId: string
  score: number
  promotedAt: string
}

/** Records promotions in one transaction; a chunk already recorded keeps its first record. */
export function recordPromotions(state: StateDb, records: readonly PromotionRecord[]): void {
  const add = recallStatement(
    state,
    `INSERT OR IGNORE INTO recall_promotions (chunk_key, path, content_hash, marker_id, score, promoted_at)
      VALUES (?, ?, ?, ?, ?, ?)`,
  )
  state.transaction(() => {
    for (const r of records) add.run(r.chunkKey, r.path, r.contentHash, r.markerId, r.score, r.promotedAt)
  })()
}

/** Promoted chunk keys, and `path\0hash` of promoted content (the same text moved to other lines is promoted too). */
export function loadPromoted(state: StateDb): { keys: Set<string>; contents: Set<string> } {
  const rows = recallStatement(
    state,
    'SELECT chunk_key AS chunkKey, path, content_hash AS hash FROM recall_promotions',
  ).all() as { chunkKey: string; path: string; hash: string }[]
  return {
    keys: new Set(rows.map((row) => row.chunkKey)),
    contents: new Set(rows.map((row) => contentId(row.path, row.hash))),
  }
}

export function contentId(path: string, hash: string): string {
  return `${path}\0${hash}`
}

export function summarisePromotions(state: StateDb): { promoted: number; lastPromotionAt: string | null } {
  const sql = 'SELECT count(*) AS promoted, max(promoted_at) AS lastPromotionAt FROM recall_promotions'
  return recallStatement(state, sql).get() as { promoted: number; lastPromotionAt: string | null }
}
