// Concept tags of a recalled block: the words its file is named after and its distinctive content words.
import { TermCounter } from '../notes/cue-terms.js'

/** A block with this many distinct concepts counts as fully rich. */
export const RICH_CONCEPTS = 6
/** Tags kept per chunk; richness saturates below this anyway. */
const MAX_TAGS = 8
/** Short words are rarely concepts ("tea" loses, "oolong" wins); the file name is exempt. */
const MIN_WORD_CHARS = 4
const PATH_STOPWORDS = new Set(['notes', 'note', 'skills', 'skill', 'index', 'readme', 'daily', 'md', 'txt'])

/**
 * Up to 8 distinct lowercase tags: file-name words first (a note named `kite-shop.md` is about the kite shop),
 * then the block's most frequent non-stopword words of 4+ letters. Markdown syntax and numbers are not concepts.
 */
export function tagConcepts(relPath: string, text: string): string[] {
  const tags = new Set<string>()
  const name = (relPath.split('/').at(-1) ?? '').replace(/\.[^.]+$/, '')
  for (const word of name.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length >= 3 && !/^\d+$/.test(word) && !PATH_STOPWORDS.has(word)) tags.add(word)
  }
  const counter = new TermCounter()
  counter.add(text)
  for (const term of counter.top(MAX_TAGS * 4)) {
    if (tags.size >= MAX_TAGS) break
    if ([...term].length >= MIN_WORD_CHARS) tags.add(term)
  }
  return [...tags].slice(0, MAX_TAGS)
}
