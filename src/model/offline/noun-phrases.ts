// Noun phrases from one tagged parse: compromise's `nouns()` re-runs clause splitting and a dozen pattern
// matches per sentence (two thirds of its cost); the chunker's Noun runs, split at the same boundaries, give
// the phrases a plan's subject is taken from for a third of the time.
import { nlp } from './nlp.js'

interface Term {
  text: string
  normal: string
  pre: string
  post: string
  tags: Set<string>
  chunk?: string
}

// Pronouns, contracted too ("I’m", "it'll"): never a phrase of their own, and they end the one before.
const PRONOUN = /^(?:he|she|we|you|they|i|him|her|it|us|them)(?:['’](?:m|s|re|ve|ll|d))?$/
const POSSESSIVE = /^(?:our|my|their|your)$/

/** The noun phrases of `text`, in order, as their words ("my talk", "the Women in Tech meetup"). */
export function nounPhrases(text: string): string[] {
  // nlp() already runs the chunker (it is one of compromise's default hooks): computing it again cost a tenth.
  const doc = nlp(text)
  const phrases: string[] = []
  let run: Term[] = []
  const close = (): void => {
    if (run.some((term) => term.tags.has('Noun') && !PRONOUN.test(term.normal))) {
      // Words keep what joins them inside the phrase ("ring-toss", "shelter's"), not what ends it.
      const text = run.map(
        (term, at) => `${at > 0 ? term.pre : ''}${term.text}${at < run.length - 1 ? term.post : ''}`,
      )
      phrases.push(text.join('').trim())
    }
    run = []
  }
  for (const sentence of doc.docs as Term[][]) {
    for (const term of sentence) {
      const isNoun = term.chunk === 'Noun' && !term.tags.has('Expression')
      // "a trip there next month": "there" ends the phrase and is no part of one.
      if (!isNoun || PRONOUN.test(term.normal) || /^(?:here|there)$/.test(term.normal)) {
        close()
        continue
      }
      if (POSSESSIVE.test(term.normal)) close()
      // "my family this weekend", "three times a week": a determiner after a noun starts a new phrase.
      if (term.tags.has('Determiner') && run.at(-1)?.tags.has('Noun')) {
        close()
        continue
      }
      run.push(term)
      // A comma or a dash ends a phrase ("Porto, with Rui"), except inside a place ("Toronto, Ontario").
      if ((/[,;:]/.test(term.post) || /\s[-–—]/.test(term.post)) && !term.tags.has('Place')) close()
    }
    close()
  }
  return phrases
}
