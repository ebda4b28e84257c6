// Sentence condensing for day summaries: drops small talk whole, and strips the words that carry no fact
// (interjections, hedges, intensifiers, emoji) from what is left. Names, numbers and dates are never touched.

/** A sentence that is only a greeting, thanks, praise or agreement: nothing a later reader asks about. */
const SMALL_TALK = new RegExp(
  '^(?:' +
    [
      'h(?:i|ey|ello)(?: there)?',
      'good (?:morning|afternoon|evening|night)',
      '(?:thanks?|thank you|thx|ty)(?: so much| a lot| again)?',
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
      'bye',
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

/** Openers said before the point: "Hey Gina!", "Wow,", "Yeah, so". */
const OPENER =
  /^(?:(?:hey|hi|hello|oh|ooh|wow|whoa|yeah|yes|yep|well|so|haha|lol|aw+|omg|hmm+|um+|ok(?:ay)?|alright|sure|please|honestly|actually|basically|anyway|btw|by the way|thanks|thank you|totally|definitely|absolutely)(?:\s+\p{Lu}[\p{L}'-]+)?\s*[,!.:;—–-]*\s+)+/iu

/** Hedges and intensifiers: the sentence means the same without them. */
const FILLER = new RegExp(
  '\\b(?:' +
    [
      'i (?:think|guess|believe|feel like|mean)',
      'you know',
      'kind of',
      'kinda',
      'sort of',
      'sorta',
      'really',
      'so much',
      'super',
      'totally',
      'actually',
      'basically',
      'literally',
      'honestly',
      'definitely',
      'truly',
      'pretty much',
      'just',
      'very',
      'quite',
      'absolutely',
      'seriously',
    ].join('|') +
    ')\\b,?\\s*',
  'gi',
)

const EMOJI = /[\p{Extended_Pictographic}\u200d\ufe0f]+/gu

/** A chat command ("/dream 7") is an instruction to the host, not part of the conversation. */
export function isCommand(text: string): boolean {
  return /^\/[a-z][\w-]*(?:\s|$)/i.test(text.trim())
}

/** Words of `text` that carry content, for the small-talk test (very short remainders are small talk). */
function contentLength(text: string): number {
  return text
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 2).length
}

/**
 * The sentence without its filler, or '' when nothing a reader would ask about is left. Deterministic and
 * conservative: it removes words, never rewrites them, so names, numbers and dates survive verbatim.
 */
export function condenseSentence(sentence: string): string {
  const flat = sentence.replace(EMOJI, ' ').replace(/\s+/g, ' ').trim()
  if (flat === '' || isCommand(flat)) return ''
  let text = flat.replace(OPENER, '')
  // Small talk is dropped when it is the whole sentence, or all of it but a few words ("Thanks, Gina!").
  const smallTalk = SMALL_TALK.exec(text)
  if (smallTalk && contentLength(text.slice(smallTalk[0].length)) < 3) return ''
  text = text
    .replace(FILLER, '')
    .replace(FILLER, '')
    .replace(/([!?.])\1+/g, '$1')
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/[,;:]+([.!?])/g, '$1')
    .replace(/[,;:]+$/, '')
    .replace(/^[\s,;:.—–-]+/, '')
    .replace(/\s{2,}/g, ' ')
    .trim()
  // Two plain words ("short list") say nothing on their own; a name or a number can ("Porto, 3 nights").
  const words = contentLength(text)
  if (words < 2 || (words < 3 && !/\d|(?<=\s)\p{Lu}/u.test(text))) return ''
  return text.charAt(0).toUpperCase() + text.slice(1)
}
