// The part of a sentence that states something as true: hypothetical clauses, the outcome of a condition, a
// wish and quoted first-person speech are blanked out (with spaces, so indices still point into the original) and
// the rules never see them. A gate per clause, not per sentence: "I found out I'm allergic to cockroaches, so who
// knows if I'll ever get a pet" still says the allergy; "I'm allergic to cats but I'd get one if I could" too.
import { nlp } from './nlp.js'
import { foldCase } from './text.js'

/**
 * "Can you remind me that the inspection is on Thursday?", "could you remember that my daughter is called Ivy":
 * a request to keep what follows, which is stated as true.
 */
export const REMEMBER_REQUEST =
  /^(?:(?:please|pls|hey|ok|okay|oh|and|also)[,\s]+)*(?:can|could|would|will) you (?:please )?(?:remind me|remember|note|make a note|keep in mind|save)(?: that)?\b/

/** Openers that make the whole sentence a thought experiment, however many clauses follow. */
const UNREAL_SENTENCE =
  /^\s*(?:(?:so|and|but|ok|okay|well|like)[,\s]+)*(?:hypothetically|theoretically|in theory|ideally|in an ideal world|in another life|for the sake of argument|let's say|let us say|let's pretend|what if|say(?=,?\s+(?:that\s+)?(?:i|we|my|our|you|your)\b))\b/
// "For the role play, my name is Captain Reyes", "In the novel I'm writing, the detective lives in Oslo". Not "in
// the play" or "in the game": a daughter in the school play on Friday is news.
const FICTION =
  /\brole[- ]?play(?:ing)?\b|\bin character\b|\bmy character\b|\bin (?:the|my|a|this|our) (?:story|novel|script|dream|scenario|example|campaign)\b|\b(?:dreamt|dreamed)\b|\bpurposes? of (?:the|this|an?) example\b/
// Someone else's words, or a joke: none of the sentence is the user's own statement. "he said…", "'I'm a doctor,' he
// said", "I'm a teacher, said my mom", "jk".
const REPORTED_SENTENCE = new RegExp(
  [
    `^(?:he|she|they|someone|somebody|people)\\s+(?:said|says|told|thinks|think)\\b`,
    // An attribution that closes the sentence: '…," he said.', '…, said my mom.'
    `[,"]\\s*(?:(?:\\w+\\s+){1,2}(?:said|says)|(?:said|says)(?:\\s+\\w+){1,2})[.!]?$`,
    '\\b(?:jk|just kidding|\\/s|said no one ever)\\b',
    // A pretence: "I told her I'm a vegetarian just to get out of the barbecue".
    '\\b(?:lied|to get out of|as an excuse|pretended|faking)\\b',
  ].join('|'),
)
// What someone says or believes of the user, from that clause on: "my friend says I'm a genius", "my coworker
// thinks my name is Steve" (what is believed is no fact, and what is said is theirs to say).
const SAYS = '(?:said|says|saying|told me|tells me|telling me|keeps telling me)'
// What the user told someone they are is what they said, not always so: "I told my landlord I'm a lawyer". What
// they told of their doings stands ("I told Tom I'm moving on the 14th").
const TOLD_THEY_ARE =
  "\\b(?:told|tell|telling) (?:him|her|them|everyone|people|my \\w+|the \\w+|\\w+) (?:that )?(?:i'm|i am)\\s+(?!(?:\\w+ing|off|away|out|back|free|busy|available)\\b)"

const BELIEVES =
  '(?:thinks|think|thought|claims|claimed|believes|believed|reckons|assumes|assumed|insists|insisted|swears|is convinced)'
const REPORTED = new RegExp(
  `${TOLD_THEY_ARE}|\\b${SAYS}\\s+(?:that\\s+)?(?:i|i'm|we|we're)\\b|\\b${BELIEVES}\\s+(?:that\\s+)?(?:i|i'm|we|we're|my|our|me)\\b`,
)
// A subordinate condition opening the sentence: blank up to its comma, and the outcome if it is one.
const CONDITION_OPENER =
  /^\s*(?:(?:so|and|but|ok|okay|well)[,\s]+)*(?:if|even if|only if|suppose|supposing|assuming|imagine|unless|whether|once|in case|were (?:i|we)|had (?:i|we))\b/
// A condition inside the sentence: from the word to its clause's end nothing is asserted ("My name is Hugo, if
// that helps."), nor what follows as its outcome ("…, and if it rains, we'll go Sunday").
const CONDITION = /\b(?:if|unless|in case|as long as|provided that)\b/
// A doubt ("…, so who knows if I'll ever get a pet", "not sure if I said, but…"): an indirect question, blanked from
// the doubt to its clause's end, which puts no condition on the rest.
const DOUBT =
  /\b(?:who knows|no idea|not sure|unsure|idk|dunno|(?:i )?(?:don't|do not) know|(?:i )?wonder(?:ed|ing)?|to see|ask(?:ed|ing)?)\s+(?:if|whether)\b|\bwhether\b/
// The outcome of a condition or a wish: "I'd call it Max", "I could see myself…", "we might go". Not "I'd rather"
// or "I'd prefer" (preferences), and not "I'd been" ("I had been").
const UNREAL_CLAUSE = new RegExp(
  [
    "\\b(?:i|we|you|he|she|they|it|that|there)'d\\b(?!\\s+(?:(?:much|really|still|also|honestly|actually)\\s+)*(?:rather|prefer|been|better|already|just|never|had|gotten|got)\\b)",
    '\\b(?:would|could|might)\\b(?!\\s+(?:(?:much|really|still|also)\\s+)*(?:rather|prefer)\\b)',
    '\\b(?:i|we) may\\b',
    '\\b(?:i wonder|maybe (?:i|we)|perhaps (?:i|we)|thinking (?:about|of)|considering|would be nice|someday|' +
      "some day|one day|i wish|we wish|if only|dreaming of|pretend(?:ing)?|i'd love to|i would love to)\\b",
  ].join('|'),
)
// The outcome after a condition that opened the sentence: a future or a modal ("If I move, I'll need a GP").
const OUTCOME = /\b(?:will|'ll|would|'d|could|might|may|going to|gonna|then)\b/
// Where clauses end: at punctuation, or before a conjunction that starts a new one.
const CLAUSE_BREAK = /[,;:()—–]|\s(?=(?:but|so|though|although|because|cos|whereas|while|and|or)\s)/g
// First-person words inside quotes: someone else's words, or the user's own quoted, not said of themselves now.
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|my|me|mine|we|we're|our|us)\b/
const QUOTED = /"[^"\n]*"/g
// A quoted line ("> I'm moving to Lisbon"), a forward ("Fwd: …", "forwarded from Mia: …") or a line of a pasted
// group chat ("Jess: I'm vegan now", "Mum: …"): someone else's words, or the user's own from elsewhere.
const QUOTED_LINE = /^\s*>|^(?:fwd?|forwarded)\b/
const SPEAKER = /^(\p{Lu}[\p{L}'’-]*(?: \p{Lu}[\p{L}'’-]*)?):\s/u
const KIN_SPEAKER = /^(?:mum|mom|mam|dad|sis|bro|grandma|grandpa|nan|gran|wife|husband|boss)$/i

export interface AssertedText {
  text: string
  lower: string
  /**
   * The sentence puts a condition on something ("I'll come over tomorrow if that's fine"): what it says of the user
   * now still holds, but no event it dates is settled.
   */
  isConditional: boolean
}

const blank = (text: string, from: number, to: number): string =>
  text.slice(0, from) + ' '.repeat(Math.max(0, to - from)) + text.slice(to)

/** [start, end) of each clause of `lower`. */
function clausesOf(lower: string): [number, number][] {
  const spans: [number, number][] = []
  let start = 0
  for (const match of lower.matchAll(CLAUSE_BREAK)) {
    spans.push([start, match.index])
    start = match.index + match[0].length
  }
  spans.push([start, lower.length])
  return spans
}

/** Where what `lower` does not assert lies: [start, end) spans, possibly overlapping. */
function unassertedSpans(text: string, lower: string): [number, number][] {
  const request = REMEMBER_REQUEST.exec(lower)
  if (request) {
    const rest = blank(lower, 0, request[0].length)
    return [[0, request[0].length], ...unassertedSpans(blank(text, 0, request[0].length), rest)]
  }
  if (UNREAL_SENTENCE.test(lower) || FICTION.test(lower) || REPORTED_SENTENCE.test(lower))
    return [[0, lower.length]]
  if (QUOTED_LINE.test(lower) || isSpeakersLine(text)) return [[0, lower.length]]
  const spans: [number, number][] = []
  for (const quote of lower.matchAll(QUOTED))
    if (FIRST_PERSON.test(quote[0])) spans.push([quote.index, quote.index + quote[0].length])
  let from = 0
  // After a condition, the clauses that say what would follow ("…, I'll need a GP") assert nothing either.
  let isOutcome = false
  if (CONDITION_OPENER.test(lower)) {
    // With no comma the condition's end is unknown: none of the sentence is asserted.
    const comma = lower.indexOf(',')
    if (comma < 0) return [[0, lower.length]]
    spans.push([0, comma])
    from = comma
    isOutcome = true
  }
  for (const [start, end] of clausesOf(lower)) {
    const clause = lower.slice(start, end)
    if (start >= from) {
      const doubt = DOUBT.exec(clause)
      const condition = doubt ? null : CONDITION.exec(clause)
      const opens = doubt ?? condition
      if (opens) spans.push([start + opens.index, end])
      else if (isOutcome && OUTCOME.test(clause)) spans.push([start, end])
      isOutcome = condition !== null || (isOutcome && OUTCOME.test(clause))
    }
    if (UNREAL_CLAUSE.test(clause)) spans.push([start, end])
    // From the saying on: "My son Finn says I'm the best cook" still names Finn.
    const reported = REPORTED.exec(clause)
    if (reported) spans.push([start + reported.index, lower.length])
  }
  return spans
}

/** "Jess: I'm vegan now": a line of a chat pasted, its speaker a person compromise knows, or kin. */
function isSpeakersLine(text: string): boolean {
  const speaker = SPEAKER.exec(text)?.[1]
  if (speaker === undefined) return false
  return KIN_SPEAKER.test(speaker) || nlp(speaker).has('#Person')
}

// Every doubt of a sentence, to set aside before looking for a condition (made once: this runs on every sentence).
const DOUBTS = new RegExp(DOUBT.source, 'g')

/** A condition is put on what the sentence says: an "if", not a doubt ("not sure if I said"). */
function isConditional(lower: string): boolean {
  return CONDITION_OPENER.test(lower) || CONDITION.test(lower.replace(DOUBTS, ' '))
}

/** `text` and its case-folded twin `lower` with every span that asserts nothing blanked out. */
export function assertedPart(text: string, lower: string): AssertedText {
  let said = { text, lower }
  for (const [from, to] of unassertedSpans(text, lower))
    said = { text: blank(said.text, from, to), lower: blank(said.lower, from, to) }
  return { ...said, isConditional: isConditional(lower) }
}

// "I found out recently I'm allergic to…", "turns out I'm…": how the user came to know it, before what is so.
const LEARNED_FRAME =
  /^(?:(?:so|and|but|oh|well|also|btw)[,\s]+)*(?:i (?:just |recently |finally )?(?:found out|learned|learnt|realised|realized|discovered)|(?:it )?turns out)(?:\s+(?:recently|today|lately|just now))?(?:\s+that)?[,\s]+(?=(?:i'm|i am|i have|i've|my)\b)/i

/** `text` without a lead-in saying how the user learned what it states. */
export function withoutLearnedFrame(text: string): string {
  const frame = LEARNED_FRAME.exec(foldCase(text))
  if (!frame) return text
  const rest = text.slice(frame[0].length)
  return rest.charAt(0).toUpperCase() + rest.slice(1)
}

/**
 * The sentence as a memory entry keeps it: without a tail that asserts nothing ("I'm allergic to wasps too, so who
 * knows if I'll ever go camping again" → "I'm allergic to wasps too."). Blanks inside the sentence stay as said.
 */
export function statedText(text: string, said: AssertedText): string {
  const end = said.text.trimEnd().length
  if (end === 0 || end === text.trimEnd().length) return text
  const kept = text
    .slice(0, end)
    .replace(/(?:[\s,;:—–-]+|\s+(?:and|but|so|or|though|although|because|cos)\b)+$/i, '')
  return /[.!]$/.test(kept) ? kept : `${kept}.`
}
