// Sorts one sentence of a user message into durable facts (or none): the gate against questions and
// hypotheticals, then the rules for each memory file, most specific first.
import { assertedPart, REMEMBER_REQUEST, statedText, withoutLearnedFrame } from './asserted.js'
import { condenseSentence } from './condense.js'
import { annotateDates, findDateMentions } from './dates.js'
import { findFeedback } from './rules-feedback.js'
import { findIdentity } from './rules-person.js'
import { findRelations } from './rules-relation.js'
import { findRename } from './rules-rename.js'
import { findPreferences } from './rules-preference.js'
import { findReferences, redactSecrets } from './rules-reference.js'
import { findAmendment, findCancelled, findDecision, findPlans, findThread } from './rules-work.js'
import { foldCase } from './text.js'
import type { Draft, Fact, SentenceView } from './types.js'

export interface SentenceInput {
  text: string
  /** ISO UTC time of the message: the reference for relative dates. */
  ts: string
  /** Local day of the message. */
  day: string
  messageId: string
  chat: string
  timeZone: string
  /** The message's text before this sentence (for "he's my partner", "that's my order"). */
  context?: string
}

const WH_WORD = /^(?:what|who|whom|where|when|why|how|which|whose)\b/
// Chat drops the question mark: "is my boss Priya coming to the offsite", "do vegetarians eat fish".
const INVERTED =
  /^(?:(?:so|and|but|hey|ok|okay|also|btw|oh)[,\s]+)*(?:is|are|am|was|were|do|does|did|can|could|would|will|should|shall|has|have|had)\s+(?:i|you|we|he|she|it|they|there|my|your|our|his|her|their|the|this|that)\b/

/** A question asks; it states nothing about the user. */
export function isQuestion(lower: string): boolean {
  if (REMEMBER_REQUEST.test(lower)) return false
  const end = lower.replace(/[\s"')\]\p{Extended_Pictographic}\u200d\ufe0f]+$/u, '')
  return end.endsWith('?') || ((WH_WORD.test(lower) || INVERTED.test(lower)) && !/[.!]$/.test(end))
}

// A request for text the assistant is to write: what follows is material, not the user speaking of themselves
// ("write a story where I live in Tortuga", "translate: I live in Paris with my husband Marc").
const TASK_REQUEST =
  /^(?:(?:please|pls|ok|okay|now|also|and|so|can you|could you|would you|will you|i need you to|i want you to|help me)[,\s]+)*(?:write|draft|compose|translate|rewrite|rephrase|paraphrase|reword|proofread|summari[sz]e|reply to|respond to|generate|make up|role-?play|act as)\b/
const TEXT_TO_WRITE =
  /\b(?:a|an|the|this)\s+(?:story|poem|song|scene|email|e-mail|letter|message|text|tweet|post|caption|speech|essay|script|dialogue|bio|cover letter)\s+(?:where|in which|about how|saying|that says)\b/
// The request's material comes after it: "Translate to French:", "Reply to the following."
const MATERIAL_FOLLOWS = /:\s|:$|\b(?:the following|below)\b/

/** The sentence is a request for text, or the material given with one earlier in its message. */
function isTaskMaterial(lower: string, context: string): boolean {
  if (TASK_REQUEST.test(lower) || TEXT_TO_WRITE.test(lower)) return true
  const before = foldCase(context)
  return TASK_REQUEST.test(before) && MATERIAL_FOLLOWS.test(before)
}

function drafts(view: SentenceView): Draft[] {
  // A rename comes first: "my name is Cass, not Cassie" renames what memory holds, then states the name.
  const rename = findRename(view)
  const found: Draft[] = [...(rename ? [rename] : []), ...findIdentity(view), ...findRelations(view)]
  const decision = findDecision(view)
  if (decision) found.push(decision)
  const changed = findCancelled(view) ?? findAmendment(view)
  found.push(...(changed ? [changed] : findPlans(view)))
  const preferences = findPreferences(view)
  // A statement already kept under a headline in user.md is not repeated as a plain preference.
  const hasUserFact = found.some((draft) => draft.file === 'user.md')
  found.push(...preferences.filter((draft) => draft.headline !== null || !hasUserFact))
  if (found.length === 0) {
    const thread = findThread(view)
    if (thread) found.push(thread)
  }
  const seen = new Set<string>()
  return found.filter((draft) => !seen.has(draft.key) && seen.add(draft.key))
}

const closeGap = (text: string): string => text.replace(/\s{2,}/g, ' ').trim()

/**
 * A draft read from a sentence with parts blanked out, its gaps closed; none when its value was all blank ('My
 * favourite quote is "I think, therefore I am"': a first-person quote is blanked, and no value beats an empty one).
 */
function closeGaps(draft: Draft): Draft[] {
  const value = closeGap(draft.value)
  if (value === '' || /^["'“”‘’\s]*$/.test(value)) return []
  return [{ ...draft, value, headline: draft.headline === null ? null : closeGap(draft.headline) }]
}

/** The durable facts one sentence states, in rule order; [] for questions, wishes and small talk. */
export function classifySentence(input: SentenceInput): Fact[] {
  const text = input.text.trim()
  if (text.length < 6 || text.length > 500) return []
  const lower = foldCase(text)
  const asked = isQuestion(lower)
  const view: SentenceView = { text, lower, mentions: [], day: input.day, context: input.context ?? '' }
  const found: Draft[] = []
  const feedback = findFeedback(view, asked)
  if (feedback) found.push(feedback)
  let stated = text
  if (!asked && !isTaskMaterial(lower, view.context)) {
    const said = assertedPart(text, lower)
    // A conditional sentence dates nothing settled: "I'll come over tomorrow if that's fine" is no plan yet.
    const mentions = said.isConditional
      ? []
      : findDateMentions(said.text, input.ts, input.timeZone, view.context)
    view.mentions = mentions
    if (said.lower.trim() !== '') {
      const drafted = drafts({ ...view, text: said.text, lower: said.lower, mentions }).flatMap(closeGaps)
      if (drafted.length > 0) stated = statedText(text, said)
      found.push(...drafted)
    }
  }
  // Dates first: their indices point into the unredacted text.
  return toFacts(found, redactSecrets(withoutLearnedFrame(annotateDates(stated, view.mentions))), input)
}

/** Reference facts in one line of a message (identifiers and addresses span sentence breaks). */
export function classifyLine(input: SentenceInput): Fact[] {
  const text = input.text.trim()
  if (text.length < 6 || text.length > 500) return []
  const lower = foldCase(text)
  if (isQuestion(lower)) return []
  const said = assertedPart(text, lower)
  return toFacts(findReferences(said.text, said.lower), redactSecrets(text), input)
}

function toFacts(found: readonly Draft[], statement: string, input: SentenceInput): Fact[] {
  return found.map((draft) => ({
    ...draft,
    value: redactSecrets(draft.value),
    headline: draft.headline === null ? null : redactSecrets(draft.headline),
    previous: draft.previous ?? null,
    isCorrection: draft.isCorrection ?? (draft.previous !== undefined && draft.previous !== null),
    // The statement without its greeting ("Hey Nate, I'm working on…" → "I'm working on…").
    text:
      condenseSentence(draft.text === undefined ? statement : redactSecrets(draft.text), {
        isTerse: false,
      }) || statement,
    day: input.day,
    ts: input.ts,
    messageId: input.messageId,
    chat: input.chat,
  }))
}
