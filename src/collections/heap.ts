// A binary heap: the lazy greedy selections and the k-way merges pop the best item again and again, and a
// sorted array's re-insert costs a copy of the whole array each time.

/** A priority queue; `before(a, b)` is true when `a` comes out first. */
export class Heap<T> {
  private readonly items: T[]
  private readonly before: (a: T, b: T) => boolean

  /** Takes `items` (the array becomes the heap's own) and orders them in O(n). */
  constructor(before: (a: T, b: T) => boolean, items: T[] = []) {
    this.before = before
    this.items = items
    for (let index = (items.length >> 1) - 1; index >= 0; index--) this.siftDown(index)
  }

  get size(): number {
    return this.items.length
  }

  /** The item that comes out next, left in place. */
  peek(): T | undefined {
    return this.items[0]
  }

  push(item: T): void {
    const items = this.items
    let index = items.push(item) - 1
    while (index > 0) {
      const parent = (index - 1) >> 1
      if (!this.before(item, items[parent]!)) break
      items[index] = items[parent]!
      index = parent
    }
    items[index] = item
  }

  pop(): T | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length > 0 && last !== undefined) {
      items[0] = last
      this.siftDown(0)
    }
    return top
  }

  /** Restores the order after the top item changed in place (cheaper than a pop and a push). */
  topChanged(): void {
    this.siftDown(0)
  }

  private siftDown(start: number): void {
    const items = this.items
    const item = items[start]!
    let index = start
    for (;;) {
      const left = 2 * index + 1
      if (left >= items.length) break
      const right = left + 1
      const child = right < items.length && this.before(items[right]!, items[left]!) ? right : left
      if (!this.before(items[child]!, item)) break
      items[index] = items[child]!
      index = child
    }
    items[index] = item
  }
}
