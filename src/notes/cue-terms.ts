// Cue terms: the most frequent non-stopword words of a day's slice, counted as messages stream past.

const STOPWORDS = new Set(
  `about above after again against all also am an and any are aren't as at be because been before being below
  between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few
  for from further get gets got had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers
  herself him himself his how how's i'd i'll i'm i've if in into is isn't it it's its itself just let's like me more
  most mustn't my myself no nor not now of off on once only or other ought our ours ourselves out over own same
  shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves
  then there there's these they they'd they'll they're they've this those through to too under until up very was
  wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom
  why why's will with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves yes yeah
  yep okay ok sure thanks thank please hey hello hi really maybe also well going gonna want wanna know think one
  two make made much many something anything thing things way still even back see need let us new good great right`
    .split(/\s+/)
    .filter(Boolean),
)

const WORD = /\p{L}[\p{L}\p{N}]*(?:[-'’]\p{L}[\p{L}\p{N}]*)*/gu
/** Only the start of a very long message is counted: terms are cues, not an index. */
const MAX_SCAN_CHARS = 4000
/** Above this many distinct terms, words seen once are dropped (deterministic for the same input). */
const MAX_DISTINCT_TERMS = 50_000

export class TermCounter {
  readonly #counts = new Map<string, number>()

  add(text: string): void {
    // match() with a global pattern returns plain strings: about twice as fast as matchAll's match objects.
    for (const word of text.slice(0, MAX_SCAN_CHARS).toLowerCase().match(WORD) ?? []) {
      const term = word.endsWith("'s") || word.endsWith('’s') ? word.slice(0, -2) : word
      if (term.length < 3 || STOPWORDS.has(term)) continue
      this.#counts.set(term, (this.#counts.get(term) ?? 0) + 1)
    }
    if (this.#counts.size > MAX_DISTINCT_TERMS) {
      for (const [term, count] of this.#counts) if (count === 1) this.#counts.delete(term)
    }
  }

  /** Up to `max` terms, most frequent first; equal counts in code-point order so output is stable. */
  top(max: number): string[] {
    return [...this.#counts]
      .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, max)
      .map(([term]) => term)
  }
}
