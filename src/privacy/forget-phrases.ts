// The phrases a forget request names: "my dentist" → "dentist", "Dr Sousa, the gym" → two phrases.

/** Words that only point at the thing ("my", "the", "o meu", "mein"), dropped from the front of a phrase. */
const LEADING_WORDS = new Set([
  ...[
    'my',
    'the',
    'our',
    'a',
    'an',
    'about',
    'of',
    'that',
    'this',
    'his',
    'her',
    'their',
    'your',
    'all',
    'everything',
  ],
  ...['o', 'a', 'os', 'as', 'meu', 'minha', 'meus', 'minhas', 'do', 'da', 'sobre', 'de'],
  ...['el', 'la', 'los', 'las', 'mi', 'mis', 'del', 'lo'],
  ...['le', 'les', 'mon', 'ma', 'mes', 'du', 'des'],
  ...['der', 'die', 'das', 'den', 'dem', 'mein', 'meine', 'meinen', 'meinem', 'meiner', 'über', 'von'],
])

/** A phrase must keep at least this many letters or digits ("ex" is a name for someone; "a" is not). */
export const MIN_PHRASE_CHARS = 2

/** Separate phrases split at commas, semicolons and " and "; leading pointer words go; too-short ones are dropped. */
export function phrasesOf(what: string): string[] {
  const phrases: string[] = []
  for (const part of what.split(/[,;\n]|\s+(?:and|e|y|et|und)\s+/i)) {
    const words = part
      .trim()
      .replace(/^["'“”‘’«»]+|["'“”‘’«»?.!]+$/g, '')
      .split(/\s+/)
      .filter(Boolean)
    while (words.length > 1 && LEADING_WORDS.has((words[0] as string).toLowerCase())) words.shift()
    const phrase = words.join(' ')
    // A pointer word alone ("my", "the") would match half the notes.
    if (words.length === 1 && LEADING_WORDS.has(phrase.toLowerCase())) continue
    if (phrase.replace(/[^\p{L}\p{N}]/gu, '').length >= MIN_PHRASE_CHARS) phrases.push(phrase)
  }
  return [...new Set(phrases)]
}

/** A clause counts as a phrase of its own from this many words: "I love it" would match far more than was said. */
const MIN_CLAUSE_WORDS = 4
/** Most phrases one message gives: a pasted page is no request to forget half the notes. */
const MAX_MESSAGE_PHRASES = 24

const TITLE_DOT = /\b(Dr|Dra|Mr|Mrs|Ms|Prof|Sr|Sra|St)\./g
const SENTENCE_END = /(?<=[.!?…])\s+|\n+/
const CLAUSE_BREAK = /[,;:()]|\s+[-–—]\s+|\s+(?:and|but|e|mas|y|pero|et|mais|und|aber)\s+/i
const NAME_WORD = /^(?:\p{Lu}[\p{Ll}'’-]+|\p{Lu}{2,})$/u

/**
 * What a forget request that points back at a message ("don't remember that", "forget what I just said") names:
 * its clauses of four words or more as it said them, and the names of two capitalised words or more in it ("Dr
 * Sousa", "Rua Formosa"), each with its last word. A lone capitalised word is left out: in German every noun is
 * one, in English every weekday; a fact the clauses remove brings its own name along (`planForget`). Joined
 * with ", ", `phrasesOf` gives the phrases back as they are.
 */
export function phrasesOfMessage(text: string): string[] {
  const found: string[] = []
  for (const sentence of text.replace(TITLE_DOT, '$1').split(SENTENCE_END)) {
    let run: string[] = []
    const endRun = () => {
      // The name and its last word: "Dr Sousa" is also "Sousa", "Rua Formosa" also "Formosa" (as topics say it).
      const last = run.at(-1) ?? ''
      if (run.length > 1) found.push(run.join(' '), ...(last.length >= 4 ? [last] : []))
      run = []
    }
    for (const raw of sentence.split(/\s+/).filter(Boolean)) {
      const word = raw.replace(/^["'“”‘’«»(]+|["'“”‘’«»).,;:!?…]+$/g, '').replace(/['’]s$/, '')
      if (NAME_WORD.test(word)) run.push(word)
      else endRun()
      // A mark after the word ends the run: "Porto, Lisbon" are two names.
      if (/[,;:!?.…)]$/.test(raw)) endRun()
    }
    endRun()
    for (const clause of sentence.split(CLAUSE_BREAK)) {
      const [phrase] = phrasesOf(clause)
      if (phrase && phrase.split(/\s+/).length >= MIN_CLAUSE_WORDS) found.push(phrase)
    }
  }
  const seen = new Set<string>()
  const phrases: string[] = []
  for (const phrase of found.flatMap(phrasesOf)) {
    const key = phrase.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    phrases.push(phrase)
  }
  return phrases.slice(0, MAX_MESSAGE_PHRASES)
}
