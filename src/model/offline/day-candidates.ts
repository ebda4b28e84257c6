// A day's candidate sentences for its summary: each message's sentences and clauses, condensed and date-resolved,
// with what makes each worth keeping — its words, names and numbers, and whether it reports, answers or only reacts.
import { capitalized, condenseSentence, isEventReport, withoutOpener } from './condense.js'
import { annotateSpans } from './date-spans.js'
import { annotateDates, findDateMentions } from './dates.js'
import { splitSentences, stripTruncationNote, truncateWords } from './text.js'
import type { WindowMessage } from './types.js'
import { termsOf } from './word-weights.js'

/** One condensed sentence that may go into the summary. */
export interface Candidate {
  text: string
  /** UTF-8 bytes of `text` plus its share of the line's separators: what it costs the budget. */
  bytes: number
  /** The words it says: what it covers, and what covers it. */
  terms: Set<string>
  /** The days its dates resolve to ("yesterday (2026-05-24)"): they count for it whatever else is kept. */
  days: string[]
  speaker: string
  tree: string
  /** Position in the day (message order, then sentence order). */
  order: number
  bonus: number
  factor: number
}

const MAX_SENTENCE_CHARS = 280

const NUMBER =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|once|twice|dozen)\b/i
// "It's been so satisfying", "That was awesome": a verdict that keeps nothing a reader could look up.
const VERDICT =
  /^(?:it|that|this|which)(?:'s| is| was| has been|'s been| feels| felt| sounds| looks| seems)\b/i
const ADDRESSED = /^(?:you|your|you're|you've|you'll|keep|don't|believe|remember)\b/i
// "That dance studio of yours will be a hit", "so proud of you": said to the listener and of nothing of the
// speaker's own, a sentence reacts to news (or advises) rather than tells any.
const SECOND_PERSON = /\b(?:you|your|yours|you're|you've|you'll|you'd|ya)\b/i
const FIRST_PERSON = /\b(?:i|i'm|i've|i'll|i'd|me|my|mine|we|we're|we've|we'll|we'd|us|our|ours)\b/i
const PROPER_NAME = /(?<=\s)(?!I\b)\p{Lu}[\p{L}'-]+/gu
const QUESTION = /\?\s*$/
// Clauses joined by a semicolon, a dash or ", but": each can stand alone as a note. Not inside brackets: an
// attachment's caption ("[image: a spider - man poster]") is one description, and its halves no sentences.
const CLAUSE_BREAK = /(?:\s*;\s+|\s+[-–—]\s+|,\s+(?=(?:but|so|and then|which)\s))(?![^[\]]*\])/

// An attachment's description ("[image: a photo of a dog on a couch]") is a caption, often machine-made: it
// shows what was sent, not what anyone said, and its rare words would crowd out what was said.
const ATTACHMENT = /^\[(?:image|photo|picture|video|file|attachment|sticker|gif)\b[^\]]*\]$/i
const ATTACHMENT_FACTOR = 0.5
// "Life is all about balance", "people always need a break": with no name or number in it, a generalisation
// holds nothing a reader looks up later.
const GENERALISATION = /\b(?:always|never|everyone|people|life|important)\b/i
const GENERALISATION_FACTOR = 0.7
const LEAD_IN = /^[^:]{1,40}:\s+/
const EVENT_BOOST = 1.6
const ANSWER_BOOST = 1.3
const VERDICT_FACTOR = 0.6
const TO_LISTENER_FACTOR = 0.4

/** Sentences of a message, condensed and date-resolved, with what makes each worth keeping. */
export function candidatesOf(
  message: WindowMessage,
  tree: string,
  timeZone: string,
  start: number,
  answersQuestion: boolean,
  /** The message before it in its thread: what "the 14th" may belong to ("booked the flat for March"). */
  saidBefore = '',
): Candidate[] {
  const out: Candidate[] = []
  const clauses = splitSentences(stripTruncationNote(message.content)).flatMap((sentence) =>
    sentence.split(CLAUSE_BREAK),
  )
  for (const sentence of clauses) {
    const uncased = condenseSentence(sentence, { keepCase: true })
    if (uncased === '') continue
    // Dates are read before the first letter is capitalised: "So, I sat with her" condenses to "sat with her",
    // and a capital "Sat" would read as a Saturday. (Capitalising keeps the length, so the mentions still fit.)
    const mentions = findDateMentions(uncased, message.ts, timeZone, `${saidBefore}\n${message.content}`)
    const dated = annotateSpans(annotateDates(capitalized(uncased), mentions), message.day)
    const text = truncateWords(dated, MAX_SENTENCE_CHARS)
    const { terms, days } = termsAndDays(text)
    const names = Math.min((text.match(PROPER_NAME) ?? []).length, 3)
    const bonus = names * 1.5 + (NUMBER.test(text) ? 2 : 0)
    // A question asks more than it tells; an assistant's reply tells a little less about the people; an
    // answer to the other side's question and a report of an event tell the most.
    let factor = (QUESTION.test(text) ? 0.35 : 1) * (message.role === 'assistant' ? 0.85 : 1)
    // "Big news: I got the job" reports an event after a short lead-in.
    const told = withoutOpener(sentence.replace(/^\W+/, ''))
    if (isEventReport(told) || isEventReport(told.replace(LEAD_IN, ''))) factor *= EVENT_BOOST
    if (answersQuestion) factor *= ANSWER_BOOST
    const raw = sentence.trim()
    const isToListener = ADDRESSED.test(text) || (SECOND_PERSON.test(raw) && !FIRST_PERSON.test(raw))
    if (bonus === 0 && VERDICT.test(text)) factor *= VERDICT_FACTOR
    // Said to the listener, a line reacts to their news or advises, even when it names a thing or a number
    // ("Your 5K on Sunday will go great"): what it is about, the other side told.
    if (isToListener) factor *= TO_LISTENER_FACTOR
    if (ATTACHMENT.test(raw)) factor *= ATTACHMENT_FACTOR
    if (bonus === 0 && GENERALISATION.test(raw)) factor *= GENERALISATION_FACTOR
    out.push({
      text,
      bytes: Buffer.byteLength(text) + 4,
      terms,
      days,
      speaker: message.sender.trim(),
      tree,
      order: start + out.length,
      bonus,
      factor,
    })
  }
  return out
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * A candidate's words apart from the days its dates resolve to. No message spells a resolved day, so it weighs
 * like the rarest word; yet two events of the same day are two things to remember, and an earlier line's date
 * must not make the next one's worth less.
 */
function termsAndDays(text: string): { terms: Set<string>; days: string[] } {
  const terms = termsOf(text)
  const days: string[] = []
  for (const term of terms) {
    if (!ISO_DAY.test(term)) continue
    days.push(term)
    terms.delete(term)
  }
  return { terms, days }
}
