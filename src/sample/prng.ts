// A small seeded PRNG (mulberry32) so sample data is identical for the same seed on every machine.

/** Plain mulberry32 from `seed` as given (no mixing): floats in [0, 1), the same stream on every machine. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

export class Prng {
  readonly #next: () => number

  constructor(seed: number) {
    // Mix the seed once so nearby seeds (1, 2, 3…) do not start on correlated streams.
    this.#next = mulberry32(Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b))
  }

  /** A float in [0, 1). */
  next(): number {
    return this.#next()
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min)
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items]
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[copy[i], copy[j]] = [copy[j] as T, copy[i] as T]
    }
    return copy
  }
}

/** Draws without replacement and reshuffles when empty, so filler rarely repeats back to back. */
export class Deck<T> {
  readonly #items: readonly T[]
  readonly #prng: Prng
  #pile: T[] = []

  constructor(items: readonly T[], prng: Prng) {
    if (items.length === 0) throw new RangeError('a deck needs at least one card')
    this.#items = items
    this.#prng = prng
  }

  draw(): T {
    if (this.#pile.length === 0) this.#pile = this.#prng.shuffle(this.#items)
    return this.#pile.pop() as T
  }
}
