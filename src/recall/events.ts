// Recall events: each hit search_workspace serves to an interactive turn becomes one appended state.db row.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Clock } from '../clock.js'
import type { StateDb } from '../db/state.js'
import { localDayOf } from '../time/local-day.js'
import type { RecalledHit } from '../tools/types.js'
import { compactRecall } from './compact.js'
import { tagConcepts } from './concepts.js'
import {
  chunkKeyOf,
  classifyLines,
  excludedPath,
  locateBlock,
  splitLines,
  type Exclusion,
  type RecallBlock,
} from './source.js'
import { recallStatement } from './store.js'

export interface RecallInput {
  query: string
  hits: readonly RecalledHit[]
  /** The chat whose turn searched; `dream:` channels never record. */
  chatJid: string
  at: Date
  /** Workspace root: hit paths are relative to it. */
  workspace: string
  /** Zone of the local day an event counts for. @default 'UTC' */
  timeZone?: string
}

export type SkipReason = Exclusion | 'dream-chat' | 'missing'

export interface RecordResult {
  /** Events appended (one per distinct chunk of this search). */
  recorded: number
  skipped: { path: string; line: number; reason: SkipReason }[]
  /** Row id of the last event appended, 0 when none. */
  lastEventId: number
}

/** Lowercased, NFKC, whitespace collapsed: "Oolong  Tea" and "oolong tea" are the same query. */
export function normaliseQuery(query: string): string {
  return query.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
}

/** sha1 of the normalised query, 12 hex: distinct queries are counted without keeping what was asked. */
export function queryHash(query: string): string {
  return createHash('sha1').update(normaliseQuery(query)).digest('hex').slice(0, 12)
}

/**
 * Appends one event per distinct chunk the hits point at. Cost is per hit — a few inserts and one read of each
 * hit file — never a rewrite of the store. Synchronous because `onRecall` is: the events are in state.db before
 * the hits reach the model. Relevance is the hit's score over the search's best score, since bm25 has no fixed
 * scale: the top hit of a search counts 1.
 */
export function recordRecall(state: StateDb, input: RecallInput): RecordResult {
  const result: RecordResult = { recorded: 0, skipped: [], lastEventId: 0 }
  if (input.chatJid.startsWith('dream:')) {
    result.skipped = input.hits.map((hit) => ({ path: hit.path, line: hit.line, reason: 'dream-chat' }))
    return result
  }
  const best = Math.max(0, ...input.hits.map((hit) => hit.score))
  const chunks = new Map<string, { path: string; block: RecallBlock; score: number }>()
  const files = new Map<string, { lines: string[]; verdicts: (Exclusion | null)[] } | null>()
  for (const hit of input.hits) {
    const located = locateHit(input.workspace, hit, files)
    if (typeof located === 'string') {
      result.skipped.push({ path: hit.path, line: hit.line, reason: located })
      continue
    }
    const key = chunkKeyOf(hit.path, located)
    const seen = chunks.get(key)
    if (!seen || hit.score > seen.score) chunks.set(key, { path: hit.path, block: located, score: hit.score })
  }
  if (chunks.size === 0) return result
  const atMs = input.at.getTime()
  const day = localDayOf(input.at, input.timeZone ?? 'UTC')
  const hash = queryHash(input.query)
  const addChunk = recallStatement(
    state,
    `INSERT OR IGNORE INTO recall_chunks (chunk_key, path, start_line, end_line, content_hash, excerpt, concepts,
      first_seen_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const addEvent = recallStatement(
    state,
    `INSERT INTO recall_events (chunk_key, query_hash, score, relevance, day, at_ms, chat_jid)
      VALUES (?, ?, ?, ?, ?, ?, ?)`,
  )
  state.transaction(() => {
    for (const [key, { path, block, score }] of chunks) {
      const concepts = JSON.stringify(tagConcepts(path, block.text))
      addChunk.run(key, path, block.startLine, block.endLine, block.hash, block.text, concepts, atMs)
      const relevance = best > 0 ? Math.min(1, Math.max(0, score / best)) : 0
      const info = addEvent.run(key, hash, score, relevance, day, atMs, input.chatJid)
      result.lastEventId = Number(info.lastInsertRowid)
      result.recorded++
    }
  })()
  return result
}

function locateHit(
  workspace: string,
  hit: RecalledHit,
  files: Map<string, { lines: string[]; verdicts: (Exclusion | null)[] } | null>,
): RecallBlock | SkipReason {
  const excluded = excludedPath(hit.path)
  if (excluded) return excluded
  if (!files.has(hit.path)) files.set(hit.path, readLines(workspace, hit.path))
  const file = files.get(hit.path)
  if (!file) return 'missing'
  return locateBlock(file.lines, file.verdicts, hit.line)
}

function readLines(
  workspace: string,
  relPath: string,
): { lines: string[]; verdicts: (Exclusion | null)[] } | null {
  let text: string
  try {
    text = readFileSync(join(workspace, relPath), 'utf8')
  } catch (error) {
    // Deleted between the search and now: there is nothing left to recall.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  const lines = splitLines(text)
  return { lines, verdicts: classifyLines(relPath, lines) }
}

export interface RecallRecorderOptions {
  state: StateDb
  workspace: string
  chatJid: string
  clock: Clock
  timeZone: string
  /** Events older than this many days are folded into per-chunk totals every `compactEvery` events. */
  compactAfterDays?: number
  /** @default 1000 */
  compactEvery?: number
  /** Where recording errors go; without it they are thrown into the search tool (which reports them). */
  onError?: (error: unknown) => void
}

/** An `onRecall` for a host's interactive tool context: records every served hit, compacting now and then. */
export function recallRecorder(
  options: RecallRecorderOptions,
): (query: string, hits: readonly RecalledHit[]) => void {
  const every = options.compactEvery ?? 1000
  return (query, hits) => {
    try {
      const at = options.clock.now()
      const { chatJid, workspace, timeZone } = options
      const result = recordRecall(options.state, { query, hits, chatJid, at, workspace, timeZone })
      // Event ids grow by one per event, so crossing a multiple of `every` happens once per `every` events.
      const crossed =
        Math.floor(result.lastEventId / every) > Math.floor((result.lastEventId - result.recorded) / every)
      if (options.compactAfterDays !== undefined && result.recorded > 0 && crossed) {
        compactRecall(options.state, {
          before: new Date(at.getTime() - options.compactAfterDays * 86_400_000),
        })
      }
    } catch (error) {
      if (!options.onError) throw error
      options.onError(error)
    }
  }
}
