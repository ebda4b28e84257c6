// `memory promote`: score and gate recalled chunks, then append the winners to MEMORY.md under the workspace lock.
import { PrivacyStore } from '../db/privacy-store.js'
import { compileForgetMatcher } from '../privacy/forget-match.js'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../clock.js'
import type { ResolvedConfig, RecallPresetName } from '../config/schema.js'
import type { StateDb } from '../db/state.js'
import { acquireLock } from '../notes/lock.js'
import { markDirty } from '../fts/journal.js'
import { writeFileAtomic } from '../notes/atomic-write.js'
import type { WorkspacePaths } from '../notes/paths.js'
import { localDayOf } from '../time/local-day.js'
import { compactRecall, type CompactResult } from './compact.js'
import { countByGate, type GateOutcome } from './gates.js'
import { insertEntries, markerIdOf, markersIn, renderEntry } from './memory-block.js'
import { resolveRecallPolicy, type RecallPolicy } from './presets.js'
import { contentId, recordPromotions, type PromotionRecord } from './promotions.js'
import { scoreCandidates, type ScoredCandidate } from './score.js'
import { excludedPath, findBlock, type RecallBlock } from './source.js'
import { loadCandidateStats } from './stats.js'

const DAY_MS = 86_400_000

export interface PlanOptions {
  now: Date
  settings: ResolvedConfig['recall']
  /** Another preset than the configured one. */
  preset?: RecallPresetName
  /** Most candidates selected for promotion. @default settings.maxPromotions */
  limit?: number
  /** List already-promoted chunks too (they are never selected again). @default false */
  includePromoted?: boolean
}

export interface PromotionPlan {
  at: string
  policy: RecallPolicy
  /** Best first; already-promoted ones only with includePromoted. */
  candidates: ScoredCandidate[]
  /** Candidates that passed every gate, at most `limit`. */
  selected: ScoredCandidate[]
  /** How many candidates each gate stopped, over all of them (promoted ones included). */
  gates: Record<GateOutcome, number>
}

/** Scores every recalled chunk now. Reads state.db only. */
export function planPromotion(state: StateDb, options: PlanOptions): PromotionPlan {
  const policy = resolveRecallPolicy(options.settings, options.preset)
  // What the user asked to forget is never promoted, whatever its score (its recall rows are dropped too).
  const forgotten = compileForgetMatcher(new PrivacyStore(state).forgottenPhrases())
  const stats = loadCandidateStats(state).filter((candidate) => !forgotten.matches(candidate.excerpt))
  const scored = scoreCandidates(stats, options.now, policy)
  const limit = options.limit ?? options.settings.maxPromotions
  return {
    at: options.now.toISOString(),
    policy,
    candidates: options.includePromoted ? scored : scored.filter((candidate) => !candidate.isPromoted),
    selected: distinctContent(scored.filter((candidate) => candidate.gate === 'pass')).slice(0, limit),
    gates: countByGate(scored.map((candidate) => candidate.gate)),
  }
}

/** The same text recalled at two line ranges (the file was edited between) is promoted once, the best first. */
function distinctContent(candidates: ScoredCandidate[]): ScoredCandidate[] {
  const seen = new Set<string>()
  return candidates.filter((candidate) => {
    const id = contentId(candidate.path, candidate.contentHash)
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
}

export interface ApplyDeps {
  state: StateDb
  paths: WorkspacePaths
  config: Pick<ResolvedConfig, 'memory' | 'dream' | 'timezone'>
  clock: Clock
}

export type ApplySkip = 'already-in-memory' | 'source-changed' | 'over-budget'

export interface ApplyResult {
  file: string
  written: { chunkKey: string; markerId: string; entry: string }[]
  skipped: { chunkKey: string; reason: ApplySkip }[]
  bytes: number
  budgetBytes: number
}

/**
 * Appends `plan.selected` to MEMORY.md. Under the workspace lock it re-reads MEMORY.md (so an edit made since
 * the plan is kept), skips chunks whose marker is already there or whose source text is gone, adds the rest
 * within memory.indexBudgetBytes, writes atomically, and only then records the promotions.
 */
export async function applyPromotion(plan: PromotionPlan, deps: ApplyDeps): Promise<ApplyResult> {
  if (plan.selected.length === 0) {
    // Nothing to write: no need to wait on (or fail against) a dream holding the lock.
    return withoutRecords(await writePromotions(plan, deps))
  }
  const lock = await acquireLock({
    file: deps.paths.lockFile,
    runId: `memory-promote-${deps.clock.now().toISOString()}`,
    clock: deps.clock,
    staleAfterMs: deps.config.dream.runTimeoutMs,
  })
  try {
    const result = await writePromotions(plan, deps)
    recordPromotions(deps.state, result.records)
    return withoutRecords(result)
  } finally {
    await lock.release()
  }
}

function withoutRecords({ records: _records, ...result }: WrittenPromotions): ApplyResult {
  return result
}

/** What writePromotions did, and the promotion records to keep once its MEMORY.md is known to stay. */
export interface WrittenPromotions extends ApplyResult {
  records: PromotionRecord[]
}

/**
 * The write half of applyPromotion, for a caller that already holds the workspace lock (a deep sweep, which
 * records the promotions only when its review keeps MEMORY.md).
 */
export async function writePromotions(plan: PromotionPlan, deps: ApplyDeps): Promise<WrittenPromotions> {
  const file = join(deps.paths.memory, 'MEMORY.md')
  const budgetBytes = deps.config.memory.indexBudgetBytes
  const current = await readMemoryIndex(file, deps.paths)
  if (plan.selected.length === 0)
    return {
      file,
      written: [],
      skipped: [],
      bytes: Buffer.byteLength(current, 'utf8'),
      budgetBytes,
      records: [],
    }
  const day = localDayOf(deps.clock.now(), deps.config.timezone)
  const { pending, alreadyThere, skipped } = await prepareEntries(
    plan.selected,
    markersIn(current),
    deps.paths,
    day,
  )
  const inserted = insertEntries(
    current,
    pending.map((item) => item.entry),
    budgetBytes,
  )
  const added = new Set(inserted.added)
  const written = pending.filter((item) => added.has(item.entry))
  for (const item of pending) {
    if (!added.has(item.entry)) skipped.push({ chunkKey: item.candidate.chunkKey, reason: 'over-budget' })
  }
  if (written.length > 0) {
    await writeFileAtomic(file, inserted.text)
    markDirty(deps.state, deps.paths.workspace, [file])
  }
  const promotedAt = deps.clock.now().toISOString()
  return {
    file,
    written: written.map(({ candidate, markerId, entry }) => ({
      chunkKey: candidate.chunkKey,
      markerId,
      entry,
    })),
    skipped,
    bytes: Buffer.byteLength(inserted.text, 'utf8'),
    budgetBytes,
    records: [
      ...written.map((item) => promotionOf(item.candidate, item.markerId, promotedAt)),
      // A marker already in MEMORY.md (a run that wrote but crashed before recording) is a promotion too.
      ...alreadyThere.map((candidate) => promotionOf(candidate, markerIdOf(candidate.chunkKey), promotedAt)),
    ],
  }
}

interface PendingEntry {
  candidate: ScoredCandidate
  markerId: string
  entry: string
}

/** Entries for the candidates whose marker is not in MEMORY.md yet and whose source text is still there. */
async function prepareEntries(
  selected: readonly ScoredCandidate[],
  present: ReadonlySet<string>,
  paths: WorkspacePaths,
  day: string,
): Promise<{ pending: PendingEntry[]; alreadyThere: ScoredCandidate[]; skipped: ApplyResult['skipped'] }> {
  const pending: PendingEntry[] = []
  const alreadyThere: ScoredCandidate[] = []
  const skipped: ApplyResult['skipped'] = []
  for (const candidate of selected) {
    const markerId = markerIdOf(candidate.chunkKey)
    if (present.has(markerId)) {
      skipped.push({ chunkKey: candidate.chunkKey, reason: 'already-in-memory' })
      alreadyThere.push(candidate)
      continue
    }
    const block = await readSourceBlock(paths.workspace, candidate)
    if (!block) {
      skipped.push({ chunkKey: candidate.chunkKey, reason: 'source-changed' })
      continue
    }
    const source = {
      path: candidate.path,
      startLine: block.startLine,
      endLine: block.endLine,
      text: block.text,
    }
    const stamp = { day, score: candidate.score }
    pending.push({
      candidate,
      markerId,
      entry: renderEntry(source, markerId, paths.memory, paths.workspace, stamp),
    })
  }
  return { pending, alreadyThere, skipped }
}

function promotionOf(candidate: ScoredCandidate, markerId: string, promotedAt: string): PromotionRecord {
  const { chunkKey, path, contentHash, score } = candidate
  return { chunkKey, path, contentHash, markerId, score, promotedAt }
}

/** MEMORY.md as it is now; a workspace without one starts from the starter template. */
async function readMemoryIndex(file: string, paths: WorkspacePaths): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  try {
    return await readFile(join(paths.template, 'MEMORY.md'), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    return '# Memory\n'
  }
}

/** The candidate's text as the source file holds it now, or null when it was edited away or deleted. */
async function readSourceBlock(workspace: string, candidate: ScoredCandidate): Promise<RecallBlock | null> {
  if (excludedPath(candidate.path)) return null
  let text: string
  try {
    text = await readFile(join(workspace, candidate.path), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  const { startLine, endLine, contentHash: hash } = candidate
  return findBlock(candidate.path, text, { startLine, endLine, hash })
}

export interface PromoteOptions extends Omit<PlanOptions, 'now' | 'settings'> {
  apply?: boolean
}

/** The whole command: compact old events (when applying), plan, and apply when asked. */
export async function promoteMemory(
  deps: ApplyDeps & { config: Pick<ResolvedConfig, 'memory' | 'dream' | 'recall'> },
  options: PromoteOptions = {},
): Promise<{ plan: PromotionPlan; compacted: CompactResult | null; applied: ApplyResult | null }> {
  const now = deps.clock.now()
  const settings = deps.config.recall
  const compacted = options.apply
    ? compactRecall(deps.state, { before: new Date(now.getTime() - settings.compactAfterDays * DAY_MS) })
    : null
  const plan = planPromotion(deps.state, { ...options, now, settings })
  const applied = options.apply ? await applyPromotion(plan, deps) : null
  return { plan, compacted, applied }
}
