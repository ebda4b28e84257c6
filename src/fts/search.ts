// searchIndex: sanitised, bm25-ranked hits whose files are re-checked before they are served.
import type { StateDb } from '../db/state.js'
import { FS_CONCURRENCY, isSameStat } from './plan.js'
import { mapLimit, probeFile, readFileBytes } from './probe.js'
import { runQuery, type RawHit } from './query.js'
import { refreshFiles, refreshIndex } from './refresh.js'
import { planQuery } from './sanitize.js'
import { hashBytes } from './settle.js'
import { ensureFtsSchema } from './schema.js'
import { resolveScope, type IndexScope } from './scope.js'
import { locateMatch, matchFocus } from './snippet.js'
import { loadFile } from './store.js'
import type { SearchHit, SearchInput } from './types.js'

const DEFAULT_LIMIT = 20
const MAX_LIMIT = 500
/** Reindex-and-requery rounds before hits whose files keep changing under us are simply left out. */
const MAX_VERIFY_ROUNDS = 3

/**
 * Searches the index. Unless `refresh: false`, an incremental refresh runs first. Then every hit's file
 * is re-stat'ed (and re-hashed when its row is racy) before it is served: a file changed since it was
 * indexed — e.g. edited in place by another program, which no directory sweep sees — is reindexed and the
 * query re-run, so a hit never shows text the file no longer has. A blank query returns no hits.
 */
export async function searchIndex(input: SearchInput): Promise<SearchHit[]> {
  const plan = planQuery(input.query)
  if (plan.pieces.length === 0) return []
  ensureFtsSchema(input.state)
  if (input.refresh ?? true) await refreshIndex(input)
  const scope = await resolveScope(input.paths, input.config)
  const query = { limit: clampLimit(input.limit), pathPrefix: normalizePrefix(input.pathPrefix) }
  for (let round = 1; ; round++) {
    const raw = runQuery(input.state, plan, query)
    const stale = await findStale(input.state, scope, raw)
    if (stale.size === 0) return rankLiveFirst(raw.map(toHit))
    if (round === MAX_VERIFY_ROUNDS)
      return rankLiveFirst(raw.filter((hit) => !stale.has(hit.path)).map(toHit))
    await refreshFiles({ ...input, relPaths: [...stale] })
  }
}

/** The hit files whose bytes may differ from what the index holds for them. */
async function findStale(state: StateDb, scope: IndexScope, hits: RawHit[]): Promise<Set<string>> {
  const paths = [...new Set(hits.map((hit) => hit.path))]
  const verdicts = await mapLimit(paths, FS_CONCURRENCY, async (path) => {
    const row = loadFile(state, path)
    if (!row) return true
    const probe = await probeFile(scope, path, true)
    if (probe.status !== 'file' || !isSameStat(row, probe.stat)) return true
    if (!row.isRacy) return false
    const read = await readFileBytes(scope, path, probe.stat)
    return !read || hashBytes(read.bytes) !== row.hash
  })
  return new Set(paths.filter((_, index) => verdicts[index]))
}

interface RankedHit extends SearchHit {
  isStruckOnly: boolean
}

function toHit(raw: RawHit): RankedHit {
  const { line, snippet } = locateMatch(raw.marked, raw.startLine)
  return {
    path: raw.path,
    line,
    snippet,
    score: raw.score,
    isStruckOnly: matchFocus(raw.marked).isStruckOnly,
  }
}

/**
 * A hit that matched only ~~struck-through~~ text found a superseded value: it goes after every hit that
 * matched live text, so "where do I work" answers with the current employer, not the old one.
 */
function rankLiveFirst(hits: RankedHit[]): SearchHit[] {
  const live = hits.filter((hit) => !hit.isStruckOnly)
  const struck = hits.filter((hit) => hit.isStruckOnly)
  return [...live, ...struck].map(({ isStruckOnly: _, ...hit }) => hit)
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)))
}

/** Workspace-relative with '/' separators, no leading './' or '/'. */
function normalizePrefix(prefix: string | undefined): string {
  return (prefix ?? '').replaceAll('\\', '/').replace(/^(\.\/|\/)+/, '')
}
