// Writing systems the engine's English-made rules must not misread: scripts written without spaces between words
// (Chinese, Japanese, Thai…), and sentences in a language other than English.

/** Characters of the scripts written without spaces between words. */
const SPACELESS_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u
/** Each run of those characters. */
export const SPACELESS_RUNS = new RegExp(`${SPACELESS_CHAR.source}+`, 'gu')

/** True when `text` holds any character of a script written without spaces. */
export function hasSpacelessScript(text: string): boolean {
  return SPACELESS_CHAR.test(text)
}

/**
 * The overlapping character pairs of each spaceless run in `text` ("北京出差" → 北京, 京出, 出差): the usual stand-in
 * for words where no space marks them, good enough to weigh and match text by. A run of one character is itself.
 */
export function spacelessBigrams(text: string): string[] {
  const pairs: string[] = []
  for (const [run] of text.matchAll(SPACELESS_RUNS)) {
    const chars = [...run]
    if (chars.length === 1) pairs.push(run)
    for (let index = 0; index + 1 < chars.length; index++) pairs.push(`${chars[index]}${chars[index + 1]}`)
  }
  return pairs
}

/**
 * About how many words of content `text` holds: words of three letters or more where spaces part them, and one
 * per two characters of a spaceless run (a Chinese word is mostly two characters). Counting the run as one word
 * made "我明天要去北京出差" ("I'm off to Beijing on business tomorrow") too short to keep.
 */
export function contentWordCount(text: string): number {
  let count = 0
  for (const [run] of text.matchAll(SPACELESS_RUNS)) count += Math.ceil([...run].length / 2)
  const spaced = text
    .replace(SPACELESS_RUNS, ' ')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
  if (spaced !== '') count += spaced.split(/\s+/).filter((word) => word.length > 2).length
  return count
}

/** English words no other common language writes the same way ("a", "my", "to", "in" and "so" are words elsewhere). */
const ENGLISH_ONLY =
  /\b(?:the|and|you|your|with|this|that|have|has|is|are|it|of|they|she|he's|i'm|i've|i'll|don't|didn't|can't|we're|what|which|would|could|should|been|from|about|just|there|their|we|our|went|got|had|were|his|her|him|did|does|when|where|who|how|why|after|before|some|really|going|week)\b/i

/**
 * Everyday words of Spanish, Portuguese, Italian, French, German, Dutch and the Scandinavian languages. Some are
 * English too ("die", "per", "Las Vegas"), so one alone beside an English-only word decides nothing.
 */
const OTHER_LANGUAGE_WORDS =
  /(?<![\p{L}'])(?:el|la|los|las|una|unos|con|que|para|por|pero|del|muy|está|estoy|tengo|der|die|das|und|ist|nicht|ein|eine|ich|auf|het|een|niet|les|des|est|une|avec|pour|dans|suis|il|che|per|della|sono|non|não|uma|com|você|och|är|jeg|ikke|og|det)(?![\p{L}'])/giu

/**
 * Whether `text` reads as another language than English: two of its everyday words, or one with no word only
 * English writes. Note style drops English articles and openers; in "mañana tengo una reunión con Carlos a las
 * 10" the "a" is Spanish for "at" and must stay.
 */
export function readsAsOtherLanguage(text: string): boolean {
  const hits = new Set((text.match(OTHER_LANGUAGE_WORDS) ?? []).map((word) => word.toLowerCase()))
  return hits.size >= 2 || (hits.size === 1 && !ENGLISH_ONLY.test(text))
}
