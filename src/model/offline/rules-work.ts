// Rules for project.md and current-state.md: decisions, dated plans and deadlines, open threads.
import { annotateDates, daysOf, type DateMention } from './dates.js'
import { looksLikePersonName, properNameAt } from './entities.js'
import { noticeBefore } from './last-day.js'
import { SLIP_OPENER } from './rules-rename.js'
import type { Draft, SentenceView } from './types.js'
import { nounPhrases } from './noun-phrases.js'
import { anyWord, contentWords, foldCase, lastSentenceOf, slugOf } from './text.js'

const DECISION = new RegExp(
  [
    // "we've decided", "the team agreed", "we're going with"
    "\\b(?:we|i|the team|our team|they|everyone|we all)(?:'ve|'re|'ll|\\s+(?:have|are|will|all|both|finally|just|" +
      'officially|now|eventually|already|unanimously))*\\s+(?:decided|agreed|chose|chosen|picked|settled on|opted|' +
      '(?:went|going|go) with(?!\\s+(?:my|our|his|her|their|him|them|us|me|you|friends?|family|the (?:kids|family))\\b)|committed to|signed off on|voted|switched to|switching to|switched from|switching from|locked in)\\b',
    // "the decision is …", "decision: …"
    '\\b(?:the |our |final )?decision(?:\\s+is|\\s+was|:)\\s+',
    // "let's go with …", "decided in the sync: …"
    "^(?:(?:ok(?:ay)?|alright|right|so)[,.]?\\s+)?(?:let's go with|(?:it's |it was |now )?(?:decided|agreed|settled)\\b)",
  ].join('|'),
)
const UNDECIDED = new RegExp(
  "\\b(?:haven't|have not|not yet|hasn't|has not|didn't|did not|can't|cannot|couldn't|never)\\s+(?:\\w+\\s+)?" +
    '(?:decided|agreed|chose|picked)\\b|\\bundecided\\b|\\bnot sure\\b',
)
// Personal choices ("I decided to make pasta") count only with something project-like in the sentence.
const PROJECT_WORDS = anyWord(
  'project launch release stack vendor contract job offer plan budget design api database db framework library ' +
    'provider hosting pricing architecture roadmap scope team hire hiring client supplier apartment flat house ' +
    'school course degree',
)

// Words that make a dated sentence a plan; "_" stands for a space.
const PLAN_CUE = anyWord(
  'launch\\w* deadline due talk session event call reservation check-?up surgery ceremony concert workshop class ' +
    'course release\\w* ship\\w* demo meeting appointment operation interview flight fly\\w* trip travel\\w* visit\\w* arriv\\w* ' +
    'leav\\w* wedding birthday party dinner lunch exam presentation review kick-?off offsite conference deliver\\w* ' +
    'submit\\w* cut-?off go[-_]live starts? starting ends? vacation holiday moving booked scheduled planned planning ' +
    'plan inspection viewing dentist doctor vet haircut game match race marathon recital gig show premiere ' +
    'graduation funeral reunion hearing audition rehearsal tour cruise festival tournament competition seminar ' +
    'webinar training orientation checkout check-?in away opens opening reopens reopening closes closing freeze last_day',
)
const CHANGE_CUE = anyWord(
  'slipped slips slip moved moves pushed(?:_back|_out)? postponed delayed rescheduled brought_forward shifted bumped ' +
    'changed now instead no_longer',
)

const THREAD = new RegExp(
  [
    "\\b(?:i'm|i am|we're|we are)\\s+(?:still\\s+|currently\\s+|now\\s+|also\\s+)?(?:working on|in the middle of|" +
      'waiting (?:for|on)|blocked (?:on|by)|stuck on|looking for|searching for|job hunting|house hunting|' +
      'preparing for|prepping for|studying for|training for|renovating|refactoring|migrating|debugging|fixing|' +
      'writing|building|rewriting|redesigning|setting up|organi[sz]ing)\\b',
    // "I've got to renew it" is an errand; "I got to volunteer at the fair" is a chance that was had.
    "\\b(?:i|we)\\s+(?:still\\s+)?(?:need|have)\\s+to\\b|\\b(?:i've|we've|i have|we have)\\s+(?:still\\s+)?got\\s+to\\b",
    '\\bremind me to\\b',
    '\\b(?:todo|to-do)\\b',
  ].join('|'),
)

/** A decision the user reports: "we decided to go with Postgres over Mongo for Atlas". */
export function findDecision(view: SentenceView): Draft | null {
  const match = DECISION.exec(view.lower)
  if (!match || UNDECIDED.test(view.lower)) return null
  const isPersonal = /^i\b/.test(match[0]) || match[0].startsWith("let's")
  const hasName = /\s(?!I\b|I')\p{Lu}/u.test(view.text)
  // "Agreed!" alone decides nothing a reader could look up; "we decided on Django with Postgres" names it.
  if (contentWords(view.lower).length < (hasName ? 3 : 4)) return null
  if (isPersonal && !hasName && !PROJECT_WORDS.test(view.lower)) return null
  const rest = view.lower.slice(match.index + match[0].length)
  return {
    kind: 'decision',
    file: 'project.md',
    section: 'Decisions',
    key: `decision.${slugOf(rest || view.lower)}`,
    value: view.lower,
    isSingle: false,
    headline: null,
  }
}

// The plan's subject: the first noun phrase that is not a pronoun or the date itself ("The Atlas launch").
const isDatePhrase = (phrase: string, mentions: readonly DateMention[]): boolean =>
  mentions.some(
    (mention) => mention.text.includes(phrase.replace(/[.!?,]+$/, '')) || phrase.includes(mention.text),
  )

// The subject's words from noun phrases that are not the date itself.
function subjectWords(text: string, mentions: readonly DateMention[]): string[][] {
  return nounPhrases(text)
    .filter((phrase) => !isDatePhrase(phrase, mentions))
    .map((phrase) => contentWords(phrase))
    .filter((words) => words.length > 0)
}

/**
 * With no event word, what is due by a date is the phrase just before it ("my manager wants the report by Friday":
 * the report, not the manager). A date not set as a deadline leaves the sentence's first phrase the subject.
 */
function phraseDueBy(text: string, mentions: readonly DateMention[]): string[] | undefined {
  const deadline = mentions.find((mention) =>
    /\b(?:by|due|before|until|till)\s+(?:the\s+|on\s+)?$/i.test(text.slice(0, mention.index)),
  )
  if (!deadline) return undefined
  const at = deadline.index
  let from = 0
  let nearest: string[] | undefined
  for (const phrase of nounPhrases(text)) {
    const index = text.indexOf(phrase, from)
    if (index < 0 || index >= at) break
    from = index + phrase.length
    const words = isDatePhrase(phrase, mentions) ? [] : contentWords(phrase)
    if (words.length > 0) nearest = words
  }
  return nearest
}

const eventPhrase = (phrases: readonly string[][]): string[] | undefined =>
  phrases.find((words) => PLAN_CUE.test(words.join(' ')))

// Event words that say when, not what: "the report's due", "the sprint ends", "my boss's away".
const NOT_AN_EVENT =
  '(?:due|away|off|on|in|at|booked|scheduled|planned|moving|leaving|arriving|starting|flying|travell?ing|visiting|starts?|ends?)\\b'

/**
 * "my cousin's wedding in Porto": the event word after someone's possessive, which the tagger may leave out of the
 * phrase ("my cousin's" alone would key the plan by the cousin). Not an "is" ("the report's due", "my boss's away").
 */
const POSSESSED_EVENT = new RegExp(
  `\\b(?:my|our|his|her|their|your)\\s+(?:[\\p{L}-]+\\s+)?([\\p{L}-]+)'s\\s+(?!${NOT_AN_EVENT})([\\p{L}-]+)`,
  'gu',
)

function possessedEvent(lower: string): string[] | undefined {
  for (const match of lower.matchAll(POSSESSED_EVENT))
    if (PLAN_CUE.test(match[2] as string)) return contentWords(`${match[1]} ${match[2]}`)
  return undefined
}

const WHEN_WORD = new RegExp(`^${NOT_AN_EVENT}`)

/** "code freeze is on the 15th": an event word the tagger read as a verb, right after the phrase it ends. */
function cueAfterPhrase(lower: string, phrases: readonly string[][]): string[] | undefined {
  const cue = PLAN_CUE.exec(lower)
  if (!cue || WHEN_WORD.test(cue[0])) return undefined
  const before = /([\p{L}-]+)\s+$/u.exec(lower.slice(0, cue.index))?.[1]
  const phrase = phrases.find((words) => words.at(-1) === before)
  return phrase ? [...phrase, cue[0]] : undefined
}

// "wife and I are going to Lisbon on the 12th": with no event word, a trip is known by where it goes, not by who goes.
const GOING_TO = /\b(?:going|off|heading|flying|driving|travell?ing|moving|back) to (?:the\s+(?=\p{Lu}))?/giu

function destinationOf(text: string): string[] | undefined {
  for (const match of text.matchAll(GOING_TO)) {
    const place = properNameAt(text, match.index + match[0].length)
    if (place) return contentWords(place)
  }
  return undefined
}

// Clauses as the phrases end: at a comma, semicolon or colon.
const CLAUSE_END = /(?<=[,;:])\s+/

// The names a sentence opens with, one or two: "Tom booked…", "Sam and Leo are…" ("Tom and I" opens with Tom).
const LEADING_NAMES = /^\s*(\p{Lu}[\p{L}'’-]*(?:\s+and\s+(?!I\b)\p{Lu}[\p{L}'’-]*)?)(?![\p{L}'’-])/u

/**
 * The sentence's first phrase, unless it only names who does something: "Tom booked us a table…" and "Tom and I
 * are doing the Christmas 5k…" are two plans, the table and the 5k. Keyed by "tom", the second struck out the first.
 */
function firstThing(text: string, phrases: readonly string[][]): string[] | undefined {
  const names = LEADING_NAMES.exec(text)?.[1]
  const isActor =
    names !== undefined &&
    phrases.length > 1 &&
    phrases[0]?.join(' ') === contentWords(names).join(' ') &&
    looksLikePersonName(text, names)
  return isActor ? phrases[1] : phrases[0]
}

// "Quick update:", "Big news:": a heading of a few words before a colon announces the sentence, it is not its
// subject, unless it names the event ("Dentist: Friday at 3pm").
const LEAD_IN = /^\s*(?:[\p{L}'’-]+\s+){0,2}[\p{L}'’-]+\s*:\s+(?=\S)/u

// A verb of moving and what it moves: "moved the trip", "pushed our viewing back".
const MOVES_WHAT =
  '\\b(?:moved|pushed|postponed|delayed|rescheduled|rebooked|shifted|bumped)\\s+((?:the|our|my|his|her|their)\\s+[a-z][a-z-]*' +
  '(?:\\s+(?!again\\b|back\\b|out\\b|to\\b|till\\b|until\\b|for\\b|from\\b|by\\b|because\\b)[a-z][a-z-]*)?)'
// "…, so we moved the trip again", "…, they pushed our viewing back": what is moved is the plan, whatever an earlier
// clause named ("Emma's mum needs surgery, so we moved the trip again, it's now April 3"). In the clause that opens
// the sentence, the usual subject stands ("The dentist moved my appointment to Wednesday": the dentist's).
const MOVED_THING = new RegExp(`[,;][^,;]*?${MOVES_WHAT}`)
// "The market moved my stall to September 19": an opening clause's mover that names no event is not the plan; the
// thing it moves is ("The dentist moved my appointment" keeps the dentist, an event word of its own).
const MOVER_MOVED = new RegExp(`^([^,;]*?)${MOVES_WHAT}`)

/** The content words of the thing the sentence moves, if it says what: in a later clause, or past a mover. */
function movedThing(lower: string): string | null {
  const later = MOVED_THING.exec(lower)?.[1]
  const opening = MOVER_MOVED.exec(lower)
  const moved = later ?? (opening && !PLAN_CUE.test(opening[1] as string) ? opening[2] : undefined)
  const words = moved ? contentWords(moved) : []
  return words.length > 0 ? words.join(' ') : null
}

// The noun phrase holding the event word wins ("my talk" over "the Women in Tech meetup").
function subjectOf(view: SentenceView, mentions: readonly DateMention[]): string | null {
  const moved = movedThing(view.lower)
  if (moved) return moved
  const lead = LEAD_IN.exec(view.text)?.[0] ?? ''
  const text = PLAN_CUE.test(foldCase(lead)) ? view.text : view.text.slice(lead.length)
  const lower = foldCase(text)
  // Tagging is the costly part, so the clause with the first event word is tagged alone first: no phrase before
  // it can hold an event word, and phrases end where clauses do.
  const clauses = text.split(CLAUSE_END)
  const cueClause = clauses.length > 1 ? clauses.find((clause) => PLAN_CUE.test(foldCase(clause))) : undefined
  const early = cueClause === undefined ? undefined : eventPhrase(subjectWords(cueClause, mentions))
  if (early) return early.join(' ')
  const phrases = subjectWords(text, mentions)
  return (
    (
      eventPhrase(phrases) ??
      possessedEvent(lower) ??
      cueAfterPhrase(lower, phrases) ??
      destinationOf(text) ??
      phraseDueBy(text, mentions) ??
      firstThing(text, phrases)
    )?.join(' ') ??
    PLAN_CUE.exec(view.lower)?.[0] ??
    null
  )
}

/** Case-folded `lower` with the words of each date mention blanked. */
function withoutDates(lower: string, mentions: readonly DateMention[]): string {
  let rest = lower
  for (const mention of mentions) rest = rest.replace(foldCase(mention.text), ' ')
  return rest
}

// Subjects any plan may have: keyed by one alone, every "the date is…" would be the same plan, each moving the last.
const GENERIC_SUBJECT = /^(?:date|day|time|deadline|due date|start|start date|end date|plan|event|thing|one)$/

/**
 * A generic subject made specific: by the sentence's other words ("Start date is Monday" → start date), else by
 * what the sentence before it named ("The tax return. Deadline is Friday." → tax return deadline), which the plan's
 * entry then keeps too ("I got an offer from Northline. I start on May 11.": what starts).
 */
function namedSubject(
  view: SentenceView,
  mentions: readonly DateMention[],
  subject: string,
): { subject: string; said?: string } {
  if (!GENERIC_SUBJECT.test(subject)) return { subject }
  // The words of the subject's own clause: 'The email said: "your start date is Monday"' is about the start date.
  const clause = view.lower.split(CLAUSE_END).find((part) => part.includes(subject)) ?? view.lower
  const words = contentWords(withoutDates(clause, mentions))
  if (words.length > subject.split(' ').length) return { subject: words.slice(0, 4).join(' ') }
  const before = lastSentenceOf(view.context)
  const said = subjectWords(before, [])[0]
  return said ? { subject: `${said.join(' ')} ${subject}`, said: before } : { subject }
}

// Words that point back at the event just named: "I think it's Thursday", "that's on the 14th".
const POINTER = /\b(?:it|it's|its|that|that's|this|which|then)\b/

/**
 * The sentence speaks of something said before it: it points back, or says nothing but its dates ("Friday at 6.").
 * "back Monday" after "hotel checkin Saturday" is a plan of its own, not the check-in moved.
 */
function pointsBack(view: SentenceView, mentions: readonly DateMention[]): boolean {
  if (POINTER.test(view.lower)) return true
  return (
    contentWords(withoutDates(view.lower, mentions).replace(/\b\d{1,2}(?::\d{2})?\s*(?:am|pm)?\b/g, ' '))
      .length === 0
  )
}

// "It now starts on May 8": a sentence about "it" whose only event words say when (starts, due) names no event.
const OPENS_WITH_POINTER = /^(?:(?:and|but|so|ok|okay|yes|yeah)[,\s]+)*(?:it|it's|that|that's|this)\b/

function namesOwnEvent(view: SentenceView): boolean {
  const cues = [...foldCase(view.text).matchAll(new RegExp(PLAN_CUE.source, 'g'))]
  if (cues.length === 0) return false
  return !OPENS_WITH_POINTER.test(view.lower) || cues.some((cue) => !WHEN_WORD.test(cue[0]))
}

/**
 * "My dentist appointment is next week. I think it's Thursday at 3.": a dated sentence with no event word of its
 * own is about the event the sentence before it named. That event is the plan's subject, and both sentences
 * its text, so the entry says what is on that day.
 */
function eventBefore(
  view: SentenceView,
  mentions: readonly DateMention[],
): { subject: string; said: string } | null {
  if (namesOwnEvent(view) || !pointsBack(view, mentions)) return null
  const said = lastSentenceOf(view.context)
  if (said === '' || !PLAN_CUE.test(foldCase(said))) return null
  const event = eventPhrase(subjectWords(said, mentions))
  return event ? { subject: event.join(' '), said } : null
}

interface PlanValue {
  value: string
  previous: string | null
  isChange: boolean
}

function planValue(view: SentenceView, future: readonly DateMention[]): PlanValue {
  // "Dec 11, not Dec 4" / "from Dec 4 to Dec 11": the date after "not"/"from"/"instead of" is the old one.
  const isOldDate = (mention: DateMention): boolean =>
    /\b(?:not|from|instead of|rather than|no longer)\s*(?:the\s+|on\s+)?$/.test(
      view.lower.slice(0, mention.index),
    )
  const old = future.find(isOldDate)
  // "moved up to December 8 because of the offsite on the 10th": the date a change goes to is the new one.
  const isNewDate = (mention: DateMention): boolean =>
    /\b(?:to|till|until)\s+(?:the\s+|on\s+)?$/.test(view.lower.slice(0, mention.index))
  const isChange = CHANGE_CUE.test(view.lower) || (old !== undefined && future.length >= 2)
  const movedTo = isChange ? future.find((mention) => mention !== old && isNewDate(mention)) : undefined
  if (movedTo && future.length >= 2) return { value: daysOf(movedTo), previous: old?.day ?? null, isChange }
  // "next weekend" said on a Monday: both weekends it may be, never one picked for the speaker.
  const uncertain = future.find((mention) => mention.otherDay !== undefined)
  if (uncertain) return { value: daysOf(uncertain), previous: null, isChange }
  const range = future.find((mention) => mention.endDay !== null && mention.endDay !== mention.day)
  if (range && isChange) return { value: range.endDay as string, previous: range.day, isChange }
  if (range) return { value: daysOf(range), previous: null, isChange }
  if (future.length >= 2 && isChange) {
    const previous = old ?? future[0]!
    const current = future.filter((mention) => mention !== previous).at(-1) ?? future.at(-1)!
    return { value: current.day, previous: previous.day, isChange }
  }
  return { value: future[0]!.day, previous: null, isChange }
}

// Words that move a plan rather than call it off ("slipped to Dec 11"); "now" alone does not ("it's off now").
const MOVED = anyWord(
  'slipped slips moved moves pushed postponed delayed rescheduled rebooked brought_forward shifted bumped changed',
)
// "talk tomorrow!", "see you Monday": a farewell, not a plan.
const FAREWELL =
  /^(?:(?:ok|okay|alright|cool|great|right|bye|thanks|night|anyway)[,!.]*\s+)*(?:talk|speak|chat|see you|see ya|catch you|ttyl|later)\b[^,;.]{0,24}[.!]*$/
// "I'm not going", "I can't make it", "I don't need to", "got cancelled", "I was going to…, but": no plan, or
// one given up. ("Can't wait" looks forward to it, and "Dec 11, not Dec 4" moves it: neither matches.)
const CALLED_OFF = new RegExp(
  [
    "\\b(?:i|we)(?:'m|'re| am| are)?\\s+(?:not|no longer)\\s+(?:coming|attending|flying|travell?ing|visiting|" +
      'leaving|moving|doing)\\b',
    // "not going to Paris", but not "not gonna forget it" or "not gonna lie".
    "\\b(?:i|we)(?:'m|'re| am| are)?\\s+not\\s+(?:going|gonna)\\b(?:\\s+to)?(?!\\s+(?:forget|miss|lie|stop|quit|give|let|pretend|complain|worry)\\b)",
    "\\b(?:i|we)\\s+(?:don't|do not|won't|will not|can't|cannot|couldn't|didn't|did not|no longer)\\s+" +
      '(?:need|have|get|go|come|make|attend|fly|travel|visit|leave|move|do)\\b',
    '\\b(?:cancell?ed|called off|fell through|not happening)\\b',
    '\\b(?:was|were) (?:going|planning) to\\b',
  ].join('|'),
)

// "I'll think about it tomorrow", "let me sleep on it", "I'll get back to you Monday": an answer put off, no event.
const DEFERRAL =
  /\b(?:i'll|i will|we'll|we will|let me|let us|let's|i can|i'm gonna|i'm going to)\s+(?:(?:have to|need to|just|probably)\s+)?(?:think (?:about|it over|on)|sleep on|get back to you|let you know|decide|figure (?:it|that|this) out|deal with (?:it|that|this)|worry about (?:it|that|this)|look (?:at|into) (?:it|that|this))\b/

/** A plan or deadline with a date on or after the day it was said: "Atlas launch is December 4". */
export function findPlan(view: SentenceView): Draft | null {
  const future = view.mentions.filter((mention) => (mention.endDay ?? mention.day) >= view.day)
  if (future.length === 0) return null
  if (CALLED_OFF.test(view.lower) && !MOVED.test(view.lower)) return null
  if (FAREWELL.test(view.lower.trim()) || (DEFERRAL.test(view.lower) && !PLAN_CUE.test(view.lower)))
    return null
  // Without an event word, a first-person sentence counts only for a later day ("dinner tonight" is not a plan).
  const isFirstPerson = /\b(?:i|i'm|i've|i'll|we|we're|we've|we'll|my|our|us)\b/.test(view.lower)
  const isLater = future.some((mention) => mention.day > view.day)
  // "We booked the flights! Tokyo on April 3, back on April 15.": a fragment after a plan's sentence is its dates.
  const followsPlan = PLAN_CUE.test(foldCase(lastSentenceOf(view.context)))
  const isOwnPlan = (isFirstPerson || followsPlan) && isLater
  if (!PLAN_CUE.test(view.lower) && !CHANGE_CUE.test(view.lower) && !isOwnPlan) return null
  // "dinner tonight" is the day's small print, not a plan worth a keyed entry; a named person or a time makes it one.
  const hasAnchor = /\s(?!I\b)\p{Lu}|\d{1,2}(?::\d{2}|\s?[ap]m)/u.test(view.text)
  if (!isLater && !hasAnchor) return null
  const { value, previous, isChange } = planValue(view, future)
  // With no subject found, the sentence's own words key the plan: one shared fallback key made every such plan
  // the same plan, so "I'll be back on Sunday" struck out "I'm seeing Tom tomorrow" as a date moved.
  const before = eventBefore(view, future)
  const named = before ? null : namedSubject(view, future, subjectOf(view, future) ?? view.lower)
  const subject = before?.subject ?? named?.subject ?? ''
  // "it's on the 5th now", with nothing before it: a day, but of no plan the sentence names.
  if (contentWords(withoutDates(subject, future).replace(/\b\d+(?:st|nd|rd|th)?\b/g, ' ')).length === 0)
    return null
  const said = before?.said ?? named?.said ?? noticeBefore(view.text, lastSentenceOf(view.context))
  return {
    kind: 'plan',
    file: 'project.md',
    section: 'Plans and deadlines',
    key: `plan.${slugOf(subject, 4)}`,
    value,
    isSingle: true,
    headline: value,
    previous,
    isCorrection: isChange,
    ...(said ? { text: `${said} ${annotateDates(view.text, view.mentions)}` } : {}),
  }
}

// "My exams finish on December 4 and then I'm going to Bali on December 10": one plan after another.
const AND_THEN = /,?\s+and then\s+|;\s+/i

/** The sentence's parts joined by "and then", when each names a day of its own; else the sentence whole. */
function partsWithOwnDays(view: SentenceView): SentenceView[] {
  const join = AND_THEN.exec(view.text)
  if (!join) return [view]
  const [cut, next] = [join.index, join.index + join[0].length]
  const first = view.mentions.filter((mention) => mention.index + mention.text.length <= cut)
  const second = view.mentions.filter((mention) => mention.index >= next)
  if (first.length === 0 || second.length === 0) return [view]
  const before = view.text.slice(0, cut)
  const after = view.text.slice(next)
  return [
    { ...view, text: before, lower: foldCase(before), mentions: first },
    {
      ...view,
      text: after,
      lower: foldCase(after),
      mentions: second.map((mention) => ({ ...mention, index: mention.index - next })),
      context: `${view.context} ${before}.`.trim(),
    },
  ]
}

// "our holiday is off", "the design review's cancelled", "scrap the book club thing", "we called off the party":
// a plan of the user's (the, our, my) called off. Not "his stag do", nor "the match is off to a good start".
const CALLED_OFF_PLAN = new RegExp(
  [
    "\\b(?:the|our|my)\\s+([a-z][a-z' -]{1,40}?)(?:'s|\\s+(?:is|are|was|were|has been|have been|got|had been))\\s+" +
      '(?:now\\s+|officially\\s+|been\\s+)?(?:off|cancell?ed|called off|scrapped)(?=\\s*(?:[,.;!]|$)|\\s+(?:now|again|too|then|sadly|unfortunately|because|since|as)\\b)',
    "^(?:(?:ok|okay|so|sadly|unfortunately|well)[,\\s]+)*(?:(?:i|we)(?:'ve| have)?\\s+(?:just\\s+)?)?(?:cancell?ed|called off|scrapped|scrap)\\s+(?:the|our|my)\\s+([a-z][a-z' -]{1,40}?)(?=\\s*(?:[,.;!]|$)|\\s+(?:now|again|too|then|thing|because|since|as|for)\\b)",
  ].join('|'),
)
// Events PLAN_CUE leaves out, as they are no cue for a date: "the book club thing", "the stag do".
const GATHERING = anyWord('club meetup get-together drinks do night picnic barbecue bbq sleepover playdate')
// A cancellation only feared, asked about or put as a condition calls nothing off.
const UNSURE =
  /\b(?:if|unless|in case|whether|might|may|could|would|maybe|probably|perhaps|hope|hopefully|afraid|worried)\b/

/**
 * A plan called off: it strikes the plan memory holds under that subject (or the one open plan of its kind, for
 * "the trip"), and writes nothing when memory holds none.
 */
export function findCancelled(view: SentenceView): Draft | null {
  const match = CALLED_OFF_PLAN.exec(view.lower)
  if (!match || UNSURE.test(view.lower)) return null
  const subject = withoutDates(match[1] ?? match[2] ?? '', view.mentions)
  // "the lights are off" is no plan: the subject must be an event.
  if (!PLAN_CUE.test(subject) && !GATHERING.test(subject)) return null
  const words = contentWords(subject)
  return {
    kind: 'plan',
    file: 'project.md',
    section: 'Plans and deadlines',
    key: `plan.${slugOf(words.join(' '), 4)}`,
    value: 'cancelled',
    isSingle: true,
    headline: 'cancelled',
    isCorrection: true,
    endsOnly: true,
  }
}

// "sorry, I meant Thursday", "no wait, the 4th", "correction, it's Sunday the 29th": a slip put right, and a day.
const PUT_RIGHT = new RegExp(
  `${SLIP_OPENER}(?:i meant|i mean|make that|it's|it is|its|that's|that should be|should be)?\\b`,
)

/** A day put right with nothing else said: it amends the plan stated just before (extract.ts finds which). */
export function findAmendment(view: SentenceView): Draft | null {
  const lead = PUT_RIGHT.exec(view.lower)
  // "sorry, I meant Thursday not Friday": the day after "not" is the slip.
  const isSlip = (mention: DateMention): boolean =>
    /\b(?:not|instead of|rather than)\s*(?:the\s+|on\s+)?$/.test(view.lower.slice(0, mention.index))
  const meant = view.mentions.filter((mention) => !isSlip(mention))
  if (!lead || meant.length !== 1) return null
  const mention = meant[0]!
  const rest = withoutDates(view.lower.slice(lead[0].length), view.mentions).replace(/\bnot\b/g, ' ')
  if (contentWords(rest.replace(/\b\d{1,2}(?::\d{2})?\s*(?:am|pm)?\b/g, ' ')).length > 0) return null
  if ((mention.endDay ?? mention.day) < view.day || mention.otherDay !== undefined) return null
  const value = daysOf(mention)
  return {
    kind: 'plan',
    file: 'project.md',
    section: 'Plans and deadlines',
    key: 'plan.amended',
    value,
    isSingle: true,
    headline: value,
    isCorrection: true,
    amends: true,
  }
}

// "change of plan on Atlas: launch moved to January 8": the lead names the plan's subject, the rest what changed.
const CHANGE_LEAD =
  /^(?:(?:ok|okay|so|btw|heads up|fyi)[,:!\s]+)*(?:a\s+)?(?:small\s+|quick\s+|slight\s+)?changes?\s+of\s+plans?\s+(?:on|for|with|re|about|regarding)\s+([^:,.;!?]{1,60}?)\s*[:,;—–-]\s*/i

/** "change of plan on Atlas: launch moved…" read as "Atlas launch moved…", so the plan keeps its key. */
function withoutChangeLead(view: SentenceView): SentenceView {
  const lead = CHANGE_LEAD.exec(view.text)
  if (!lead) return view
  const subject = lead[1]!.replace(/^the\s+/i, '')
  const text = `${subject} ${view.text.slice(lead[0].length)}`
  const shift = subject.length + 1 - lead[0].length
  const mentions = view.mentions
    .filter((mention) => mention.index >= lead[0].length)
    .map((mention) => ({ ...mention, index: mention.index + shift }))
  return { ...view, text, lower: foldCase(text), mentions }
}

/** The plans a sentence names: one, or one for each part joined by "and then" with a day of its own. */
export function findPlans(view: SentenceView): Draft[] {
  return partsWithOwnDays(withoutChangeLead(view))
    .map(findPlan)
    .filter((plan) => plan !== null)
}

// After "I have to" / "we need to": what the speaker is about to say ("I have to say…", "I need to tell you"),
// leaving the chat ("I need to go now"), a vague "we need to catch up soon", or a duty with no task in it ("we
// need to support them however we can"). None is an errand left open.
const NO_ERRAND = new RegExp(
  [
    '^\\s+(?:say|admit|confess|mention|agree|tell you|ask you|thank|apologi[sz]e)\\b',
    '^\\s+(?:go|run|dash|head off|sign off|leave)(?:\\s+(?:now|soon))?\\s*(?:[,.!]|$)',
    '^\\s+(?:catch up|hang out|get together|meet up)\\b(?:\\s+\\w+)?\\s+(?:soon|sometime|some time|again)\\b',
    '\\b(?:however|whatever way|any way|wherever|whenever) (?:we|i|you|they) can\\b',
  ].join('|'),
)

/** Ongoing work and open loops, for current-state.md: "still waiting for the visa", "I need to renew…". */
export function findThread(view: SentenceView): Draft | null {
  const match = THREAD.exec(view.lower)
  if (!match) return null
  // Precision first: the thread is what the sentence opens with ("I'm still waiting for…"), not a clause deep
  // inside it ("…focused on what I have to do").
  const lead = view.lower
    .slice(0, match.index)
    .replace(/^(?:(?:oh|and|but|so|also|yeah|btw|still|now|currently|please|pls|ok|okay|hey)[,\s]+)*/, '')
  if (lead.trim() !== '') return null
  const rest = view.lower.slice(match.index + match[0].length)
  if (/^\s+(?:it|that|this|them)\b/.test(rest) || contentWords(view.lower).length < 3) return null
  if (NO_ERRAND.test(rest)) return null
  return {
    kind: 'thread',
    file: 'current-state.md',
    section: 'Open threads',
    key: `thread.${slugOf(view.lower)}`,
    value: view.lower,
    isSingle: false,
    headline: null,
  }
}
