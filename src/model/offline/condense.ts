// Sentence condensing for day summaries: drops small talk whole, and strips the words that carry no fact
// (interjections, hedges, intensifiers, emoji) from what is left. Names, numbers and dates are never touched.
import { contentWordCount, readsAsOtherLanguage } from './script.js'
import { contentWords } from './text.js'

// "I joined a church", "we adopted a puppy": a report of something that happened — what people ask about later.
const EVENT =
  /^(?:(?:yesterday|today|last \w+|this \w+|recently|finally|just)[, ]+)?(?:i|we|my \w+|our \w+)(?:'ve| have| had| just| finally| recently| also| actually)*\s+(\w+ed|went|got|made|took|gave|found|met|saw|won|lost|bought|began|started|joined|moved|came|ran|wrote|read|built|left|sold|spent|tried|did)\b/i

/** Whether `text` reports what the speaker (or theirs) did: "I got promoted", "my sister moved to Porto". */
export function isEventReport(text: string): boolean {
  return EVENT.test(text)
}

/**
 * "We made pizza!", "I got promoted": a report with something besides its verb (not "we went there") says what
 * happened in two words.
 */
function isShortReport(text: string): boolean {
  const verb = EVENT.exec(text)?.[1]?.toLowerCase()
  return verb !== undefined && contentWords(text).filter((word) => word !== verb).length > 0
}

/** A sentence that is only a greeting, thanks, praise or agreement: nothing a later reader asks about. */
const SMALL_TALK = new RegExp(
  '^(?:' +
    [
      'h(?:i|ey|ello)(?: there)?',
      'good (?:morning|afternoon|evening|night)',
      '(?:thanks?|thank you|thx|ty)(?: so much| a lot| again)?(?: for (?:the|your|that|this|all|everything)(?: \\w+)?)?',
      'sure thing',
      'sorry to hear(?: that| about that| it)?',
      'long time no (?:see|talk|chat|speak)',
      'ttyl',
      'have (?:a )?(?:good|great|nice|fun|lovely) (?:day|one|night|time|weekend|evening)',
      'talk to you (?:soon|later)',
      'catch you later',
      'way to go',
      'good for you',
      'well done',
      'you too',
      'no (?:worries|problem)',
      'my pleasure',
      'any ?time',
      'congrat(?:s|ulations)',
      'wow',
      'whoa',
      'yay',
      'ha(?:ha)+',
      'lol',
      'omg',
      'aw+',
      'o+h+',
      'hm+',
      'yes',
      'yeah',
      'yep',
      'yup',
      'no(?:pe)?',
      'sure',
      'ok(?:ay)?',
      'alright',
      'right',
      'exactly',
      'totally',
      'definitely',
      'absolutely',
      'of course',
      'cool',
      'nice',
      'great',
      'awesome',
      'amazing',
      'perfect',
      'sweet',
      'lovely',
      'good luck',
      'take care',
      'later,? take care',
      'bye',
      "(?:i'm |i am )?doing (?:ok|okay|good|great|well|fine|alright)",
      'bet (?:it|that|they|you) (?:tastes?|looks?|sounds?|was|were|is|are) (?:so |really )?(?:great|good|amazing|delicious|awesome|fun|lovely)',
      'see (?:you|ya)',
      'talk (?:soon|later)',
      'me too',
      'same here',
      'glad to hear',
      'good to (?:hear|know|see you)',
      'nice to (?:hear|see you)',
      'sounds (?:good|great|fun|amazing|awesome|like a plan)',
      "(?:that's|that is|it's|this is|what an?) (?:so |really |super |very |pretty |such an? )*(?:awesome|great|amazing|cool|nice|wonderful|fantastic|incredible|impressive|inspiring|beautiful|lovely|exciting|fun|sweet|good|true|a great idea|great news|good news)",
      "i(?:'m| am) (?:so |really )*(?:happy|glad|proud|excited) for you",
      'i (?:totally |completely )?(?:agree|understand|hear you|feel you|get it)',
      'keep (?:it|up the good work)(?: up)?',
      "you(?:'ve| have)? got this",
      'you can do it',
    ].join('|') +
    ')\\b',
  'i',
)

/** Words said before the point: "Hey Gina!", "Wow,", "Yeah, so". */
const OPENER_WORDS = new Set(
  (
    'hey hi hello oh ooh ah ahh wow whoa woah yay gosh phew whew ugh yikes yeah yes yep yup well so haha lol aw aww omg hmm um ok okay alright sure please ' +
    'honestly actually basically anyway btw thanks totally definitely absolutely'
  ).split(' '),
)
const GREETINGS = new Set(['hey', 'hi', 'hello'])

/**
 * `text` without its opening words. A capitalised word right after one is the person addressed ("Hey Gina!")
 * and goes too. Gentle mode drops only greetings, so "Please stop adding emoji" keeps its "please".
 */
export function withoutOpener(text: string, isGentle = false): string {
  let rest = text
  for (;;) {
    const match = /^([\p{L}']+)(\s+\p{Lu}[\p{L}'-]+)?\s*[,!.:;—–-]*\s+/u.exec(rest)
    const word = match?.[1]?.toLowerCase() ?? ''
    const isOpener = isGentle ? GREETINGS.has(word) : OPENER_WORDS.has(word)
    if (!match || !isOpener) return rest
    // "So Gina moved" is a sentence, not an opener: a name must be closed by punctuation to be the addressee.
    const named = match[2] !== undefined && /[,!.:;—–-]\s*$/.test(match[0])
    rest = named
      ? rest.slice(match[0].length)
      : rest.slice(match[1]!.length).replace(/^\s*[,!.:;—–-]*\s*/, '')
  }
}

// After a negation an intensifier is part of what is denied: "don't really like it" is not "don't like it".
const NOT_NEGATED = "(?<!(?:\\bnot|n't|\\bnever) )"

/**
 * Words the sentence means the same without: discourse markers and intensifiers. Hedges that set how sure the
 * speaker is ("I think I'll move", "kind of regret it", "pretty much done") are the claim's strength and stay,
 * as do "let you know" and "did you know", where the words are what is said.
 */
const FILLER = new RegExp(
  '\\b(?:' +
    [
      'i mean(?! (?:it|that|to|what|him|her|them|you)\\b)',
      "(?<!\\b(?:let|lets|let's|do|did|does|don't|didn't|doesn't|if|as|to|would|will|wanna|want) )you know",
      ...[
        'really',
        'so much',
        'totally',
        'actually',
        'basically',
        'literally',
        'honestly',
        'definitely',
        'truly',
        'very',
        'quite',
        'absolutely',
        'seriously',
      ].map((word) => NOT_NEGATED + word),
      '(?<!\\bnot )just',
    ].join('|') +
    ')\\b,?\\s*',
  'gi',
)

/**
 * `text` without its filler words, except where one is part of a name: a capital inside the sentence, or one
 * followed by another capitalised word ("Truly Madly Deeply", "The Very Hungry Caterpillar").
 */
function withoutFiller(text: string): string {
  return text.replace(FILLER, (match: string, offset: number) => {
    const isCapital = /^\p{Lu}/u.test(match) && !/^I\b/.test(match)
    if (!isCapital) return ''
    const isInside = offset > 0 && !/[.!?]\s*$/.test(text.slice(0, offset))
    const next = text.slice(offset + match.length)
    const isNamed = !match.includes(',') && /^\p{Lu}/u.test(next) && !/^I\b/.test(next)
    return isInside || isNamed ? match : ''
  })
}

const EMOJI = /[\p{Extended_Pictographic}\u200d\ufe0f]+/gu

/** A chat command ("/dream 7") is an instruction to the host, not part of the conversation. */
export function isCommand(text: string): boolean {
  return /^\/[a-z][\w-]*(?:\s|$)/i.test(text.trim())
}

/** Only a greeting, thanks or praise, or all of it but a few content words ("Thanks, Gina!"). */
function isSmallTalk(text: string): boolean {
  const smallTalk = SMALL_TALK.exec(text)
  return smallTalk !== null && contentWordCount(text.slice(smallTalk[0].length)) < 3
}

/**
 * The sentence without its filler (and, when terse, in note style: no articles or hedges), or '' when nothing a
 * reader would ask about is left. Deterministic and conservative: it removes words, never rewrites them, so names,
 * numbers and dates survive verbatim. A terse sentence starts with a capital unless `keepCase`.
 */
export function condenseSentence(
  sentence: string,
  options: { isTerse?: boolean; keepCase?: boolean } = {},
): string {
  const flat = sentence.replace(EMOJI, ' ').replace(/\s+/g, ' ').trim()
  if (flat === '' || isCommand(flat)) return ''
  const isTerse = options.isTerse ?? true
  // Small talk is dropped when it is the whole sentence, or all of it but a few words ("Thanks, Gina!"). It is
  // looked for before the openers go too: "Sure thing, John!" without its "sure" would read "Thing, John".
  const greeted = withoutOpener(flat, true)
  let text = isTerse ? withoutOpener(greeted) : greeted
  if (isSmallTalk(greeted) || isSmallTalk(text)) return ''
  text = (isTerse ? withoutFiller(withoutFiller(text)) : text)
    .replace(/([!?.])\1+/g, '$1')
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/[,;:]+([.!?])/g, '$1')
    .replace(/[,;:]+$/, '')
    .replace(/^[\s,;:.—–-]+/, '')
    .replace(/\s{2,}/g, ' ')
    .trim()
  // Two plain words ("short list") say nothing on their own; a name or a number can ("Porto, 3 nights").
  const words = contentWordCount(text)
  if (words < 2 || (words < 3 && !/\d|(?<=\s)\p{Lu}/u.test(text) && !isShortReport(text))) return ''
  if (!isTerse) return text
  // Note style drops English words; another language's "a" or "my" is a word of its own.
  const terse = readsAsOtherLanguage(text) ? text : telegraph(text)
  return options.keepCase ? terse : capitalized(terse)
}

/** `text` with its first letter upper-cased (left alone where that would change its length, as ß's does). */
export function capitalized(text: string): string {
  const first = text.charAt(0).toUpperCase()
  return first.length === 1 ? first + text.slice(1) : text
}

/**
 * Note style: no articles, no "I'm" to open a line already headed by the speaker's name. The article stays in a
 * quantity whose meaning it turns round: "a few friends" are not "few friends", "a little" is not "little", and
 * "three runs a week" is a rate ("three runs week" is not); and
 * "I'll" and "I'd" stay, since without them "I'll quit my job" reads as done ("Quit job"). "We" stays too: under
 * the speaker's name, "Love hiking" would say the speaker alone does it.
 */
function telegraph(text: string): string {
  return text
    .replace(/^(?:and|but|so|also|plus|then|anyway)[,]?\s+/i, '')
    .replace(/,?\s+(?:right|you know|huh|eh)\?$/i, '.')
    .replace(/\[image: (?:a )?(?:photography|photo|picture|image) of (?:a |an |the )?/gi, '[photo: ')
    .replace(/^i(?:'m| am|'ve| have| had)?\s+(?=[a-z])/i, '')
    .replace(
      /(^|[\s(])(?:the|(?:a|an)(?!\s+(?:day|week|month|year|night|hour|minute)\b))\s+(?=[a-z0-9])(?!(?:few|little)\b)/g,
      '$1',
    )
    .replace(/^(?:A|An|The)\s+(?=[a-z])(?!(?:few|little)\b)/, '')
    .replace(/(^|\s)my\s+(?=[a-z])/g, '$1')
}
