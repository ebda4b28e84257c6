// compromise, with its match sweep's candidates found through an index of the net. For each sentence its sweep
// concatenated the pattern lists of every hook word or tag the sentence has (`maybe = maybe.concat(list)`, the
// lists of #Noun or #Verb hundreds long), removed repeats through an object keyed by pattern, then kept the few
// whose needs the sentence meets: ~400 patterns walked for ~15 tried, most of each parse's sweep time and much
// of its garbage. A pattern is tried only with all its needs, so each is indexed under one need (or its wants)
// and put in compromise's order by its first place under a hook the sentence has: the same candidates in the
// same order, so the same matches and tags.
import compromise from 'compromise'

/** A term as the sweep reads it: the rest is compromise's own. */
type Term = object

/** One compiled match pattern of a net (compromise's own object, passed on as it is). */
interface Pattern {
  match: string
  needs: string[]
  wants: string[]
  minWant: number
  minWords: number
  ifNo?: string[]
}

interface Net {
  /** Patterns by the word or tag that makes them worth trying, in the order compromise tries them. */
  hooks: Record<string, Pattern[]>
  /** Patterns tried on every sentence. */
  always: Pattern[]
}

interface SweepMethods {
  one: {
    cacheDoc(document: Term[][]): Set<string>[]
    match(document: Term[][], pattern: Pattern): { ptrs: number[][] }
    bulkMatch: BulkMatch
  }
}

type Found = Pattern & { pointer: number[] }
type BulkMatch = (
  document: Term[][],
  net: Net,
  methods: SweepMethods,
  options?: { matchOne?: boolean },
) => Found[]

const methods = compromise.methods() as SweepMethods

/** compromise's own sweep, which `bulkMatchIndexed` replaces (and falls back on for a net it cannot index). */
export const compromiseBulkMatch: BulkMatch = methods.one.bulkMatch

/** Where a net's patterns sit, for finding a sentence's candidates without walking every hook's list. */
interface NetIndex {
  /** Each pattern's places in the lists: its rank in compromise's walk (hook order, then list order), its hook. */
  places: Map<Pattern, [rank: number, hook: string][]>
  /** The patterns to look at when a sentence has this word or tag: each under one need, or all its wants. */
  triggers: Map<string, Pattern[]>
}

const netIndexes = new WeakMap<Net, NetIndex | null>()

function append<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key)
  if (list) list.push(value)
  else lists.set(key, [value])
}

/**
 * The net's index, built on its first sweep. Null when two patterns share a match string (buildNet never makes
 * such a net: a string's needs and wants are its own, so its first pattern wins every list it is in).
 */
function indexOf(net: Net): NetIndex | null {
  const known = netIndexes.get(net)
  if (known !== undefined) return known
  const places: NetIndex['places'] = new Map()
  const byMatch = new Map<string, Pattern>()
  let rank = 0
  let index: NetIndex | null = { places, triggers: new Map() }
  for (const [hook, patterns] of Object.entries(net.hooks)) {
    for (const pattern of patterns) {
      if ((byMatch.get(pattern.match) ?? pattern) !== pattern) index = null
      byMatch.set(pattern.match, pattern)
      append(places, pattern, [rank++, hook])
    }
  }
  const listed = (hook: string): number => net.hooks[hook]?.length ?? 0
  const trigger = (hook: string, pattern: Pattern): void => {
    if (index) append(index.triggers, hook, pattern)
  }
  for (const [pattern, at] of places) {
    // A pattern is tried only with all its needs, so one need (the one with the shortest list) finds it.
    if (pattern.needs.length > 0)
      trigger(
        pattern.needs.reduce((best, need) => (listed(need) < listed(best) ? need : best)),
        pattern,
      )
    else for (const hook of new Set(at.map(([, hook]) => hook))) trigger(hook, pattern)
  }
  netIndexes.set(net, index)
  return index
}

/** Whether a sentence with `haves` (its words and #tags) meets `pattern`'s needs, exclusions and wants. */
function isWorthTrying(pattern: Pattern, haves: Set<string>): boolean {
  if (!pattern.needs.every((need) => haves.has(need))) return false
  if (pattern.ifNo?.some((no) => haves.has(no))) return false
  if (pattern.wants.length === 0) return true
  return pattern.wants.filter((want) => haves.has(want)).length >= pattern.minWant
}

/**
 * The patterns worth trying on a sentence with `haves`, in compromise's order: by the first place each has
 * under a hook the sentence has, as walking those hooks' lists in net order would meet them.
 */
function candidatesOf(index: NetIndex, haves: Set<string>): Pattern[] {
  const ranked: [number, Pattern][] = []
  const reached = new Set<Pattern>()
  for (const item of haves) {
    for (const pattern of index.triggers.get(item) ?? []) {
      if (reached.has(pattern)) continue
      reached.add(pattern)
      if (!isWorthTrying(pattern, haves)) continue
      const first = (index.places.get(pattern) ?? []).find(([, hook]) => haves.has(hook))
      if (first) ranked.push([first[0], pattern])
    }
  }
  return ranked.sort(([a], [b]) => a - b).map(([, pattern]) => pattern)
}

/** compromise's `bulkMatch` (sweep: hooks, trim, size, run), its candidates found through the net's index. */
export const bulkMatchIndexed: BulkMatch = (document, net, sweep, options = {}) => {
  const index = indexOf(net)
  if (index === null) return compromiseBulkMatch(document, net, sweep, options)
  const caches = sweep.one.cacheDoc(document)
  const found: Found[] = []
  for (const [at, sentence] of document.entries()) {
    for (const pattern of candidatesOf(index, caches[at] as Set<string>).concat(net.always)) {
      if (sentence.length < pattern.minWords) continue
      const { ptrs } = sweep.one.match([sentence], pattern)
      for (const pointer of ptrs) {
        pointer[0] = at
        found.push({ ...pattern, pointer })
      }
      if (ptrs.length > 0 && options.matchOne === true) return found.slice(0, 1)
    }
  }
  return found
}

methods.one.bulkMatch = bulkMatchIndexed

/** compromise's `nlp`, its sweep replaced by `bulkMatchIndexed`. */
export const nlp = compromise
