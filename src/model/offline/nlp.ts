// compromise, with its match sweep's candidate list built in one pass. For each sentence its sweep concatenated
// the pattern lists of every hook word or tag the sentence has (`maybe = maybe.concat(list)`, the lists of #Noun
// or #Verb hundreds long), then removed repeats through an object keyed by pattern: a quarter of each parse's CPU
// and much of its garbage. The same candidates, in the same order, are now collected once, repeats skipped as
// they come, each checked as compromise's own filters do; the matches found are identical.
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

/** compromise's own sweep, which `bulkMatchInOnePass` replaces (kept for the tests that compare the two). */
export const compromiseBulkMatch: BulkMatch = methods.one.bulkMatch

const hookOrders = new WeakMap<Net['hooks'], Map<string, number>>()

/** Each hook's place in the net: compromise tries the hooks a sentence has in the net's key order. */
function hookOrderOf(hooks: Net['hooks']): Map<string, number> {
  let order = hookOrders.get(hooks)
  if (!order) {
    order = new Map(Object.keys(hooks).map((hook, at) => [hook, at]))
    hookOrders.set(hooks, order)
  }
  return order
}

/** Whether a sentence with `haves` (its words and #tags) meets `pattern`'s needs, exclusions and wants. */
function isWorthTrying(pattern: Pattern, haves: Set<string>): boolean {
  if (!pattern.needs.every((need) => haves.has(need))) return false
  if (pattern.ifNo?.some((no) => haves.has(no))) return false
  if (pattern.wants.length === 0) return true
  return pattern.wants.filter((want) => haves.has(want)).length >= pattern.minWant
}

/** The patterns worth trying on one sentence, in compromise's order, each pattern string once. */
function candidatesOf(net: Net, haves: Set<string>, order: Map<string, number>): Pattern[] {
  const hooks = [...haves].filter((item) => order.has(item))
  hooks.sort((a, b) => (order.get(a) as number) - (order.get(b) as number))
  const seen = new Set<string>()
  const candidates: Pattern[] = []
  for (const hook of hooks) {
    for (const pattern of net.hooks[hook] as Pattern[]) {
      // The first pattern of a string is the one kept, whether or not it is worth trying.
      if (seen.has(pattern.match)) continue
      seen.add(pattern.match)
      if (isWorthTrying(pattern, haves)) candidates.push(pattern)
    }
  }
  return candidates
}

/** compromise's `bulkMatch` (sweep: hooks, trim, size, run), with the candidate list built in one pass. */
export const bulkMatchInOnePass: BulkMatch = (document, net, sweep, options = {}) => {
  const order = hookOrderOf(net.hooks)
  const caches = sweep.one.cacheDoc(document)
  const found: Found[] = []
  for (const [index, sentence] of document.entries()) {
    const candidates = candidatesOf(net, caches[index] as Set<string>, order).concat(net.always)
    for (const pattern of candidates) {
      if (sentence.length < pattern.minWords) continue
      const { ptrs } = sweep.one.match([sentence], pattern)
      for (const pointer of ptrs) {
        pointer[0] = index
        found.push({ ...pattern, pointer })
      }
      if (ptrs.length > 0 && options.matchOne === true) return found.slice(0, 1)
    }
  }
  return found
}

methods.one.bulkMatch = bulkMatchInOnePass

/** compromise's `nlp`, its sweep replaced by `bulkMatchInOnePass`. */
export const nlp = compromise
