import { describe, expect, it } from 'vitest'
import { Heap } from '../../src/collections/heap.js'
import { Prng } from '../../src/sample/prng.js'

const ascending = (a: number, b: number): boolean => a < b

function drain<T>(heap: Heap<T>): T[] {
  const out: T[] = []
  for (let item = heap.pop(); item !== undefined; item = heap.pop()) out.push(item)
  return out
}

describe('Heap', () => {
  it('gives back any mix of pushes and a heapified start in order', () => {
    const prng = new Prng(11)
    const start = Array.from({ length: 500 }, () => Math.floor(prng.next() * 1000))
    const heap = new Heap(ascending, [...start])
    const pushed = Array.from({ length: 700 }, () => Math.floor(prng.next() * 1000))
    for (const value of pushed) heap.push(value)
    expect(heap.size).toBe(1200)
    expect(drain(heap)).toEqual([...start, ...pushed].sort((a, b) => a - b))
  })

  it('interleaves pops and pushes like a sorted list would', () => {
    const prng = new Prng(3)
    const heap = new Heap<number>(ascending)
    const model: number[] = []
    for (let step = 0; step < 2000; step++) {
      if (prng.next() < 0.6 || model.length === 0) {
        const value = Math.floor(prng.next() * 50)
        heap.push(value)
        model.push(value)
        model.sort((a, b) => a - b)
      } else {
        expect(heap.peek()).toBe(model[0])
        expect(heap.pop()).toBe(model.shift())
      }
    }
    expect(drain(heap)).toEqual(model)
  })

  it('re-sorts a top changed in place, and is empty at the end', () => {
    const items = [{ key: 1 }, { key: 5 }, { key: 3 }]
    const heap = new Heap((a: { key: number }, b: { key: number }) => a.key < b.key, items)
    heap.peek()!.key = 9
    heap.topChanged()
    expect(drain(heap).map((item) => item.key)).toEqual([3, 5, 9])
    expect(heap.pop()).toBeUndefined()
    expect(heap.peek()).toBeUndefined()
  })
})
