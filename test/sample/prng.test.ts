import { describe, expect, it } from 'vitest'
import { Deck, Prng } from '../../src/sample/prng.js'

const draws = (prng: Prng, count: number) => Array.from({ length: count }, () => prng.next())

describe('Prng', () => {
  it('repeats its sequence for a seed and differs between nearby seeds', () => {
    expect(draws(new Prng(42), 20)).toEqual(draws(new Prng(42), 20))
    expect(draws(new Prng(1), 20)).not.toEqual(draws(new Prng(2), 20))
  })

  it('keeps int within both bounds and reaches each end', () => {
    const prng = new Prng(3)
    const seen = new Set(Array.from({ length: 500 }, () => prng.int(2, 5)))
    expect([...seen].sort()).toEqual([2, 3, 4, 5])
  })

  it('deals every card once before reshuffling', () => {
    const deck = new Deck(['a', 'b', 'c', 'd'], new Prng(9))
    const firstRound = Array.from({ length: 4 }, () => deck.draw())
    expect([...firstRound].sort()).toEqual(['a', 'b', 'c', 'd'])
    const secondRound = Array.from({ length: 4 }, () => deck.draw())
    expect([...secondRound].sort()).toEqual(['a', 'b', 'c', 'd'])
  })
})
