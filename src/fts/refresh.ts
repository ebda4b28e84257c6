// Brings the FTS index in line with the search roots: journal + directory sweep, or a full walk.
import { systemClock } from '../clock.js'
import type { StateDb } from '../db/state.js'
import { applyChanges, type AppliedCounts, type IndexChanges } from './apply.js'
import { readJournal } from './journal.js'
import { addExplicit, emptyPlan, planFullWalk, planSweep, type ScanPlan } from './plan.js'
import { ensureFtsSchema, INDEX_FORMAT } from './schema.js'
import { resolveScope, type IndexScope } from './scope.js'
import { RACY_WINDOW_MS, settleCandidates } from './settle.js'
import { countFiles, readMeta } from './store.js'
import type { RefreshInput, RefreshResult } from './types.js'

/**
 * What a refresh guarantees (and what search adds on top):
 * - Files dreamlane itself wrote and passed to `markDirty` are read on the next refresh, whatever their stat.
 * - Files created, deleted or renamed by anyone are found on the next refresh: that changes their directory's
 *   mtime/ctime, and every indexed directory is stat'ed each time (a directory changed within RACY_WINDOW_MS
 *   of being listed is listed again). Atomic saves (temp file + rename), as most editors do, count as this.
 * - A file edited in place by an outside tool leaves its directory alone. The rolling sweep re-stats
 *   `sweepFiles` indexed files per refresh (default 1/64 of them), so every file is re-checked at least once
 *   every 64 refreshes, and `full: true` re-checks all of them now. Until then the file may be missing from
 *   results, but it is never served stale: `searchIndex` re-stats every hit's file before returning it and
 *   reindexes and re-queries when one changed.
 * - A checked file whose size, mtime, ctime and inode all equal the stored ones is not read, unless its
 *   row is racy (see RACY_WINDOW_MS); then it is hashed, and reindexed only if the bytes differ.
 * - Everything one refresh found is written in one transaction (a rebuild of over 32 MB of changed text
 *   writes file batches first and its directory rows last, so an interrupted one is redone, not trusted).
 */
export async function refreshIndex(input: RefreshInput): Promise<RefreshResult> {
  ensureFtsSchema(input.state)
  return serialize(input.state, () => runRefresh(input))
}

/**
 * Re-reads exactly `relPaths` (workspace-relative) and reindexes or removes them, without any sweep.
 * Search uses it for hits whose file changed since it was indexed.
 */
export async function refreshFiles(
  input: RefreshInput & { relPaths: readonly string[] },
): Promise<RefreshResult> {
  ensureFtsSchema(input.state)
  return serialize(input.state, async () => {
    const scope = await resolveScope(input.paths, input.config)
    const plan = emptyPlan()
    addExplicit(input.state, scope, plan, input.relPaths)
    return commitPlan(input, scope, plan, { full: false, isSweep: false })
  })
}

async function runRefresh(input: RefreshInput): Promise<RefreshResult> {
  const { state } = input
  const scope = await resolveScope(input.paths, input.config)
  // Chunks withheld under other kept kinds are rebuilt whole: a kind no longer kept must leave the index now.
  const wipe =
    readMeta(state, 'format') !== INDEX_FORMAT ||
    (readMeta(state, KEPT_KINDS_META) ?? '') !== scope.keepSecretKinds.join(',')
  const full = Boolean(input.full) || wipe || readMeta(state, 'scope') !== scope.fingerprint
  const journal = readJournal(state)
  const sweepFiles = input.sweepFiles ?? Math.max(8, Math.ceil(countFiles(state) / 64))
  const clock = input.clock ?? systemClock
  const plan = full
    ? await planFullWalk(state, scope, clock, wipe)
    : await planSweep(state, scope, clock, sweepFiles)
  addExplicit(state, scope, plan, journal.paths)
  return commitPlan(input, scope, plan, { full, isSweep: true, wipe, journalSeq: journal.maxSeq })
}

interface CommitOptions {
  full: boolean
  /** A sweep or walk (not refreshFiles): records dirs, the sweep cursor and the refresh time. */
  isSweep: boolean
  wipe?: boolean
  journalSeq?: number
}

/** The secret kinds the stored chunks were allowed to keep, comma-separated ('' when none: the default). */
const KEPT_KINDS_META = 'kept_secret_kinds'

/** Changed bytes held in memory before a huge rebuild writes a batch (dir rows still wait for the end). */
const MAX_PENDING_BYTES = 32 * 1024 * 1024

async function commitPlan(
  input: RefreshInput,
  scope: IndexScope,
  plan: ScanPlan,
  options: CommitOptions,
): Promise<RefreshResult> {
  const { state } = input
  const clock = input.clock ?? systemClock
  const totals: AppliedCounts = { added: 0, updated: 0, removed: 0 }
  // Plan removals go in the first write, so a later batch can never resurrect what they delete.
  let pending = newChanges([...plan.removedFiles], [...plan.removedTrees], options.wipe)
  let pendingBytes = 0
  const flush = (extra: Partial<IndexChanges> = {}): void => {
    const counts = applyChanges(state, { ...pending, ...extra })
    totals.added += counts.added
    totals.updated += counts.updated
    totals.removed += counts.removed
    pending = newChanges([], [], false)
    pendingBytes = 0
  }
  await settleCandidates(scope, plan.candidates, plan.counters, clock, {
    upsert: (file) => {
      pending.upserts.push(file)
      pendingBytes += file.stat.size
      if (pendingBytes > MAX_PENDING_BYTES) flush()
    },
    touch: (file) => void pending.touches.push(file),
    remove: (path) => void pending.removedFiles.push(path),
  })
  const dirs = plan.scannedDirs.map(({ path, stat, checkedAtMs }) => ({
    path,
    ...stat,
    isRacy: stat.mtimeMs >= checkedAtMs - RACY_WINDOW_MS ? (1 as const) : (0 as const),
  }))
  const meta: Record<string, string> = {}
  if (options.isSweep) {
    meta.format = INDEX_FORMAT
    meta.scope = scope.fingerprint
    meta[KEPT_KINDS_META] = scope.keepSecretKinds.join(',')
    meta.last_refresh_at = clock.now().toISOString()
    if (plan.sweepCursor !== undefined) meta.sweep_cursor = plan.sweepCursor
  }
  flush({ dirs, meta, journalSeq: options.journalSeq })
  const files = countFiles(state)
  return {
    ...totals,
    unchanged: Math.max(0, files - totals.added - totals.updated),
    ...plan.counters,
    full: options.full,
  }
}

function newChanges(removedFiles: string[], removedTrees: string[], wipe = false): IndexChanges {
  return { upserts: [], touches: [], removedFiles, removedTrees, dirs: [], wipe }
}

const queues = new WeakMap<StateDb, Promise<unknown>>()

/** One refresh at a time per state.db handle: two interleaved ones could commit older bytes over newer. */
function serialize<T>(state: StateDb, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(state) ?? Promise.resolve()
  const next = previous.then(task, task)
  queues.set(
    state,
    next.catch(() => undefined),
  )
  return next
}
