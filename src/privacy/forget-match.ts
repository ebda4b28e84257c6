// Whether a piece of text mentions something the user asked to forget: whole words, any case or accent.
import { foldText, wordsOf } from './fold.js'

/** Tests text against forgotten phrases; plain data in (the phrases), so it can be rebuilt on any thread. */
export interface ForgetMatcher {
  readonly phrases: readonly string[]
  /** True when `text` mentions any phrase. */
  matches(text: string): boolean
  /** The phrases `text` mentions. */
  matching(text: string): string[]
}

const NO_MATCH: ForgetMatcher = { phrases: [], matches: () => false, matching: () => [] }

/**
 * A matcher for `phrases`: each phrase's words in order, separated by anything that is not a letter or digit,
 * with word edges on both sides; the last word may carry a plural or possessive ending ("dentists", "Sousa's").
 */
export function compileForgetMatcher(phrases: readonly string[]): ForgetMatcher {
  const usable = [...new Set(phrases.map((phrase) => wordsOf(phrase).join(' ')).filter(Boolean))]
  if (usable.length === 0) return NO_MATCH
  const patterns = usable.map((phrase) => ({ phrase, pattern: phrasePattern(phrase) }))
  return {
    phrases: usable,
    matches(text) {
      const folded = foldText(text)
      return patterns.some(({ pattern }) => pattern.test(folded))
    },
    matching(text) {
      const folded = foldText(text)
      return patterns.filter(({ pattern }) => pattern.test(folded)).map(({ phrase }) => phrase)
    },
  }
}

function phrasePattern(phrase: string): RegExp {
  const words = phrase.split(' ').map(escapeRegExp)
  const body = words.join('[^\\p{L}\\p{N}]+')
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?:e?s|'s)?(?![\\p{L}\\p{N}])`, 'u')
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
