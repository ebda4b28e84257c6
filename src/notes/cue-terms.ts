// Cue terms: the most frequent non-stopword words of a day's slice, counted as messages stream past.

const STOPWORDS =
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
    .filter(Boolean)

/** A word as the cue terms see it (applied to lower-cased text). */
export const WORD = /\p{L}[\p{L}\p{N}]*(?:[-'’]\p{L}[\p{L}\p{N}]*)*/gu
/** Only the start of a very long message is counted: terms are cues, not an index. */
export const MAX_SCAN_CHARS = 4000
/** Above this many distinct terms, words seen once are dropped (deterministic for the same input). */
export const MAX_DISTINCT_TERMS = 50_000

const NON_ASCII = /[^\x00-\x7f]/
/** Marks a stopword's slot in the table: found like a term, never counted. */
const STOP = -1
const APOSTROPHE = 0x27
const HYPHEN = 0x2d

const LETTER = 1
const DIGIT = 2
/** WORD's classes over ASCII: LETTER, DIGIT or 0. */
const ASCII_CLASS = new Uint8Array(128)
/** ASCII lower-cased. */
const ASCII_LOWER = new Uint8Array(128)
for (let code = 0; code < 128; code++) {
  const isUpper = code >= 0x41 && code <= 0x5a
  ASCII_LOWER[code] = isUpper ? code | 0x20 : code
  if (isUpper || (code >= 0x61 && code <= 0x7a)) ASCII_CLASS[code] = LETTER
  else if (code >= 0x30 && code <= 0x39) ASCII_CLASS[code] = DIGIT
}

const lower = (code: number): number => (code >= 0x41 && code <= 0x5a ? code | 0x20 : code)

function hashOf(text: string, start: number, end: number): number {
  let hash = 0
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + lower(text.charCodeAt(i))) | 0
  return hash
}

/**
 * Counts terms in an open-addressing table keyed by the term's UTF-16 units, so a word already seen costs a
 * hash and a compare of the text in place: no substring, no lower-cased copy of the message. ASCII text is
 * scanned by hand with exactly WORD's rules; other text goes through WORD itself, into the same table.
 */
export class TermCounter {
  #keys: (string | undefined)[] = []
  #hashes = new Int32Array(0)
  #counts = new Int32Array(0)
  #mask = 0
  #used = 0
  /** Distinct counted terms (stopwords excluded). */
  #distinct = 0

  /** The empty table with the stopwords in, built once: every day's counter starts from a copy. */
  static #empty:
    { keys: (string | undefined)[]; hashes: Int32Array; counts: Int32Array; used: number } | undefined

  constructor() {
    const empty = TermCounter.#empty
    if (empty) {
      this.#keys = empty.keys.slice()
      this.#hashes = empty.hashes.slice()
      this.#counts = empty.counts.slice()
      this.#mask = empty.keys.length - 1
      this.#used = empty.used
      return
    }
    this.#reset(1 << 12)
    TermCounter.#empty = {
      keys: this.#keys.slice(),
      hashes: this.#hashes.slice(),
      counts: this.#counts.slice(),
      used: this.#used,
    }
  }

  add(text: string): void {
    const scanned = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text
    if (NON_ASCII.test(scanned)) this.#addWords(scanned.toLowerCase())
    else this.#addAscii(scanned)
    if (this.#distinct > MAX_DISTINCT_TERMS) this.#dropSingles()
  }

  /** Up to `max` terms, most frequent first; equal counts in UTF-16 order so output is stable. */
  top(max: number): string[] {
    const entries: [string, number][] = []
    for (let slot = 0; slot <= this.#mask; slot++) {
      const count = this.#counts[slot] as number
      if (count > 0) entries.push([this.#keys[slot] as string, count])
    }
    return entries
      .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, max)
      .map(([term]) => term)
  }

  /** WORD over ASCII text, by hand: a letter, letters and digits, then `-` or `'` joining more of the same. */
  #addAscii(text: string): void {
    const length = text.length
    let i = 0
    while (i < length) {
      let code = text.charCodeAt(i)
      if (ASCII_CLASS[code] !== LETTER) {
        i++
        continue
      }
      const start = i
      // The hash is built while scanning, over the lower-cased units, so a word already counted is never copied.
      let hash = 0
      for (;;) {
        hash = (Math.imul(hash, 31) + (ASCII_LOWER[code] as number)) | 0
        i++
        if (i >= length) break
        code = text.charCodeAt(i)
        if (ASCII_CLASS[code] !== 0) continue
        if ((code === HYPHEN || code === APOSTROPHE) && i + 1 < length) {
          const after = text.charCodeAt(i + 1)
          if (ASCII_CLASS[after] === LETTER) {
            hash = (Math.imul(hash, 31) + code) | 0
            i++
            code = after
            continue
          }
        }
        break
      }
      let end = i
      if (
        end - start >= 2 &&
        text.charCodeAt(end - 2) === APOSTROPHE &&
        (text.charCodeAt(end - 1) | 0x20) === 0x73
      ) {
        end -= 2
        hash = 0
        for (let k = start; k < end; k++)
          hash = (Math.imul(hash, 31) + (ASCII_LOWER[text.charCodeAt(k)] as number)) | 0
      }
      if (end - start >= 3) this.#count(text, start, end, hash)
    }
  }

  /** Text with other scripts: WORD itself on the lower-cased text, as the term list has always been made. */
  #addWords(lowered: string): void {
    for (const word of lowered.match(WORD) ?? []) {
      const term = word.endsWith("'s") || word.endsWith('’s') ? word.slice(0, -2) : word
      if (term.length >= 3) this.#count(term, 0, term.length)
    }
  }

  /** Counts text[start, end) lower-cased (ASCII letters only: other text arrives lower-cased already). */
  #count(text: string, start: number, end: number, hash = hashOf(text, start, end)): void {
    const slot = this.#find(hash, text, start, end)
    const count = this.#counts[slot] as number
    if (count === STOP) return
    if (count > 0) {
      this.#counts[slot] = count + 1
      return
    }
    this.#put(slot, hash, text.slice(start, end).toLowerCase(), 1)
    this.#distinct++
  }

  /** The slot holding text[start, end), or the empty slot where it belongs. */
  #find(hash: number, text: string, start: number, end: number): number {
    const length = end - start
    let slot = (hash ^ (hash >>> 16)) & this.#mask
    for (;;) {
      const key = this.#keys[slot]
      if (key === undefined) return slot
      if (this.#hashes[slot] === hash && key.length === length) {
        let same = true
        for (let k = 0; k < length && same; k++)
          same = key.charCodeAt(k) === lower(text.charCodeAt(start + k))
        if (same) return slot
      }
      slot = (slot + 1) & this.#mask
    }
  }

  #put(slot: number, hash: number, key: string, count: number): void {
    this.#keys[slot] = key
    this.#hashes[slot] = hash
    this.#counts[slot] = count
    if (++this.#used * 2 > this.#mask + 1) this.#grow((this.#mask + 1) << 1)
  }

  /** Words seen once go; stopwords and the rest stay (the same terms a Map pruned in place kept). */
  #dropSingles(): void {
    this.#grow(this.#mask + 1, (count) => count !== 1)
    this.#distinct = 0
    for (const count of this.#counts) if (count > 0) this.#distinct++
  }

  #grow(capacity: number, keep: (count: number) => boolean = () => true): void {
    const keys = this.#keys
    const hashes = this.#hashes
    const counts = this.#counts
    this.#reset(capacity, false)
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot]
      const count = counts[slot] as number
      if (key === undefined || !keep(count)) continue
      this.#put(this.#find(hashes[slot] as number, key, 0, key.length), hashes[slot] as number, key, count)
    }
  }

  #reset(capacity: number, withStopwords = true): void {
    this.#keys = new Array<string | undefined>(capacity).fill(undefined)
    this.#hashes = new Int32Array(capacity)
    this.#counts = new Int32Array(capacity)
    this.#mask = capacity - 1
    this.#used = 0
    if (!withStopwords) return
    for (const word of STOPWORDS) {
      const hash = hashOf(word, 0, word.length)
      const slot = this.#find(hash, word, 0, word.length)
      if (this.#keys[slot] === undefined) this.#put(slot, hash, word, STOP)
    }
  }
}
