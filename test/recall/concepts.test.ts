// Concept tags: file-name words first, then distinctive content words; capped, stopwords and short words out.
import { describe, expect, it } from 'vitest'
import { tagConcepts } from '../../src/recall/concepts.js'

describe('tagConcepts', () => {
  it('takes the file name words, then content words of 4+ letters (most frequent, then alphabetical)', () => {
    const text = 'Sam runs the kite shop on Harbour Street, and the shop opens at 9'
    expect(tagConcepts('notes/kite-shop.md', text)).toEqual([
      'kite',
      'shop',
      'harbour',
      'opens',
      'runs',
      'street',
    ])
    expect(tagConcepts('notes/people.md', text)).toEqual([
      'people',
      'shop',
      'harbour',
      'kite',
      'opens',
      'runs',
      'street',
    ])
  })

  it('caps at 8 distinct tags, most frequent content words first', () => {
    const text =
      'zebra zebra zebra yak '.repeat(3) + 'alpha bravo charlie delta echo foxtrot golf hotel india'
    const tags = tagConcepts('notes/x.md', text)
    expect(tags).toHaveLength(8)
    expect(tags[0]).toBe('zebra')
    expect(new Set(tags).size).toBe(8)
  })

  it('finds nothing in a block of stopwords, markup and numbers', () => {
    expect(tagConcepts('notes/2026.md', '- [ ] it is what it was 42 ## **')).toEqual([])
  })
})
