// Texting style read as the rules expect it: "im", "ive", "dont" get their apostrophes back, "u" is "you", and in a
// sentence typed all in lower case the names compromise knows (first names, places) get their capitals, which the
// rules read names by ("my sister jess is visiting sat" → "my sister Jess is visiting sat").
import { nlp } from './nlp.js'

// Run-together contractions that are no other word. Not "id" (an ID), "ill", "well", "were", "its", "hell",
// "shell", "wed" or "wont" (words of their own).
const CONTRACTIONS: Record<string, string> = {
  im: "i'm",
  ive: "i've",
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  cant: "can't",
  isnt: "isn't",
  arent: "aren't",
  wasnt: "wasn't",
  werent: "weren't",
  havent: "haven't",
  hasnt: "hasn't",
  couldnt: "couldn't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  youre: "you're",
  theyre: "they're",
  thats: "that's",
  whats: "what's",
  u: 'you',
}
const RUN_TOGETHER = new RegExp(
  `(?<![\\p{L}\\p{N}'’-])(?:${Object.keys(CONTRACTIONS).join('|')})(?![\\p{L}\\p{N}'’-])`,
  'giu',
)
const HAS_RUN_TOGETHER = new RegExp(RUN_TOGETHER.source, 'iu')

// Where a lower-case sentence may hold a name a rule reads: after a role or "called", in a place or workplace.
const NAME_SLOT =
  /\b(?:my|our|called|named|name|names|call me|in|from|to|at|for|and|with|see|meet(?:ing)?|visit(?:ing)?)\b/

/** `sentence` with its run-together contractions spelled out and, typed all in lower case, its names capitalised. */
export function asTyped(sentence: string): string {
  const spelled = HAS_RUN_TOGETHER.test(sentence) ? sentence.replace(RUN_TOGETHER, spellOut) : sentence
  return /\p{Lu}/u.test(spelled) || !NAME_SLOT.test(spelled) ? spelled : withNameCapitals(spelled)
}

function spellOut(word: string): string {
  const spelled = CONTRACTIONS[word.toLowerCase()] as string
  return /^\p{Lu}/u.test(word) ? spelled.charAt(0).toUpperCase() + spelled.slice(1) : spelled
}

/**
 * Capitals for the words compromise reads as a first name or a place in context ("my boss mark", "i live in
 * leeds"), not as a verb or a modal ("my friend will help", "my sister may come"). Unknown names stay as typed.
 */
function withNameCapitals(sentence: string): string {
  const names = new Set<string>()
  const parsed = nlp(sentence).json() as { terms: { normal: string; tags: string[] }[] }[]
  for (const term of parsed.flatMap((part) => part.terms)) {
    const tags = new Set(term.tags)
    // Not "st" or "dr": an abbreviation alone is no name ("at st marys primary").
    const isName = tags.has('FirstName') || tags.has('Place')
    if (isName && term.normal.length >= 3 && !tags.has('Verb') && !tags.has('Pronoun')) names.add(term.normal)
  }
  if (names.size === 0) return sentence
  return sentence.replace(/[\p{L}'’-]+/gu, (word) =>
    names.has(word) ? word.charAt(0).toUpperCase() + word.slice(1) : word,
  )
}
