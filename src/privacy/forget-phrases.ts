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
