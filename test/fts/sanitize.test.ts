import { describe, expect, it } from 'vitest'
import { likePatterns, matchAll, matchAny, planQuery } from '../../src/fts/sanitize.js'

describe('planQuery', () => {
  it('quotes every term so operators are plain text', () => {
    const plan = planQuery('tea AND NOT -coffee a:b NEAR(x')
    expect(plan.terms).toEqual(['"tea"', '"AND"', '"NOT"', '"-coffee"', '"a:b"', '"NEAR(x"'])
    expect(matchAll(plan)).toBe('"tea" "AND" "NOT" "-coffee" "a:b" "NEAR(x"')
    expect(matchAny(planQuery('tea sam'))).toBe('"tea" OR "sam"')
  })

  it('doubles embedded quotes and keeps quoted phrases whole', () => {
    expect(planQuery('say "hello world" o"k').terms).toEqual(['"say"', '"hello world"', '"o""k"'])
    expect(planQuery('"unbalanced').terms).toEqual(['"""unbalanced"'])
  })

  it('keeps a trailing * as a prefix and drops pieces without letters or digits from the terms', () => {
    expect(planQuery('postg* * ( 🦄 --').terms).toEqual(['"postg"*'])
    expect(planQuery('postg* * ( 🦄 --').pieces).toEqual(['postg*', '*', '(', '🦄', '--'])
  })

  it('strips control characters and caps the number of pieces', () => {
    expect(planQuery('a\u0000b').pieces).toEqual(['a', 'b'])
    expect(planQuery(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')).pieces).toHaveLength(32)
  })

  it('turns LIKE wildcards in user text into single-character ones (callers re-check verbatim)', () => {
    expect(likePatterns(planQuery('50% a_b c\\d ostgre'))).toEqual(['%50_%', '%a_b%', '%c\\d%', '%ostgre%'])
  })
})
