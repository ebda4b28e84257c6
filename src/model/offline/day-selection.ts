// Which of a day's candidates its summary keeps: budgeted maximum coverage. A sentence earns its place by the
// weight of the words it adds that the chosen lines do not hold yet, divided by its length.
import { Heap } from '../../collections/heap.js'
import type { Candidate } from './day-candidates.js'
import type { WordWeights } from './word-weights.js'
import { yieldToLoop } from './yield.js'

/** Sentence cost grows a little slower than its length: a long, rich sentence is not punished for it. */
const COST_EXPONENT = 0.8
/** Candidates per day the selection looks at: the longest days are cut to the most promising. */
const MAX_CANDIDATES = 4000

function gainOf(candidate: Candidate, covered: ReadonlySet<string>, weights: WordWeights): number {
  let gain = 0
  for (const term of candidate.terms) if (!covered.has(term)) gain += weights.weight(term)
  for (const day of candidate.days) gain += weights.weight(day)
  if (gain === 0) return 0
  return (gain + candidate.bonus) * candidate.factor
}

/** What a candidate adds per unit of cost, given the words already covered. */
function ratioOf(candidate: Candidate, covered: ReadonlySet<string>, weights: WordWeights): number {
  return gainOf(candidate, covered, weights) / candidate.bytes ** COST_EXPONENT
}

interface Scored {
  candidate: Candidate
  ratio: number
}

// Higher ratio first; the earlier sentence wins a tie, so the same day always gives the same lines.
const isBetter = (a: Scored, b: Scored): boolean =>
  a.ratio > b.ratio || (a.ratio === b.ratio && a.candidate.order < b.candidate.order)

/**
 * Lazy greedy budgeted coverage: gains only shrink as words get covered, so a candidate whose stale gain
 * still tops the list after re-scoring is the true best.
 */
export async function selectCandidates(
  candidates: readonly Candidate[],
  weights: WordWeights,
  budget: number,
): Promise<Candidate[]> {
  const covered = new Set<string>()
  const scored: Scored[] = []
  for (const candidate of candidates) {
    const ratio = ratioOf(candidate, covered, weights)
    if (ratio > 0) scored.push({ candidate, ratio })
    await yieldToLoop()
  }
  const ranked = scored
    .sort((a, b) => b.ratio - a.ratio || a.candidate.order - b.candidate.order)
    .slice(0, MAX_CANDIDATES)
  const queue = new Heap(isBetter, ranked)
  const chosen: Candidate[] = []
  let spent = 0
  for (let top = queue.pop(); top !== undefined; top = queue.pop()) {
    await yieldToLoop()
    const fresh = ratioOf(top.candidate, covered, weights)
    const next = queue.peek()
    if (next && fresh < next.ratio) {
      top.ratio = fresh
      queue.push(top)
      continue
    }
    if (fresh <= 0) break
    if (spent + top.candidate.bytes > budget) continue
    chosen.push(top.candidate)
    spent += top.candidate.bytes
    for (const term of top.candidate.terms) covered.add(term)
  }
  return chosen.sort((a, b) => a.order - b.order)
}

/**
 * A conversation the budget left out entirely still gets its most telling sentence: a busy chat must not make a
 * quieter one on the same day read as if nothing was said there.
 */
export function withEveryTree(
  chosen: readonly Candidate[],
  candidates: readonly Candidate[],
  weights: WordWeights,
): Candidate[] {
  const served = new Set(chosen.map((candidate) => candidate.tree))
  const best = new Map<string, { candidate: Candidate; ratio: number }>()
  for (const candidate of candidates) {
    if (served.has(candidate.tree)) continue
    const ratio = ratioOf(candidate, new Set(), weights)
    const current = best.get(candidate.tree)
    if (ratio > 0 && (!current || ratio > current.ratio)) best.set(candidate.tree, { candidate, ratio })
  }
  return [...chosen, ...[...best.values()].map((entry) => entry.candidate)].sort((a, b) => a.order - b.order)
}
