// Rules for feedback.md: what the user tells the assistant about how it should answer and behave.
import type { Draft, SentenceView } from './types.js'
import { slugOf } from './text.js'

// What the assistant's behaviour is made of: its answers, their form, its habits.
const BEHAVIOUR_NOUN = new RegExp(
  '\\b(?:answers?|repl(?:y|ies)|responses?|messages?|summar(?:y|ies|ise|ize|ising|izing)|explanations?|' +
    'bullets?|bullet points?|lists?|emojis?|tone|format(?:ting)?|length|apologi[sz]\\w*|say(?:ing)? sorry|' +
    'jargon|caveats?|disclaimers?|markdown|tables?|headings?|code blocks?|sources?|citations?|' +
    'exclamation(?: marks?)?|follow-up questions?|questions|paragraphs?|walls? of text|essays?|recaps?|' +
    'preambles?|small talk|flattery|compliments?|details?|units?|metric|imperial|celsius|fahrenheit|examples?|' +
    'spelling|(?:plain|british|american|uk|us) english|' +
    // How the assistant addresses the user ("don't call me buddy"), not a phone call ("call me back").
    'call(?:ing)? me (?!(?:back|later|tomorrow|tonight|after|before|at|on|in|when|if)\\b))\\b',
)
// Style words count only when aimed at the assistant ("keep it short", "be more concise", "you're too formal").
const STYLE_WORD =
  /\b(?:short(?:er)?|long(?:er)?|brief(?:er)?|concise|detailed|verbose|wordy|formal|casual|simple|simpler|direct|blunt)\b/

// A reply's lead-in before the instruction: "yes, but keep it short", "thanks! and no more bullets".
const PREFIX =
  '(?:(?:please|pls|and|but|so|also|oh|ok(?:ay)?|btw|just|hey|fyi|yes|yeah|yep|sure|thanks|thank you|no|nope|' +
  'great|cool|alright|all right|right|well|fine|perfect|got it)[,:!.]?\\s+)*'
const STYLE_AIM = new RegExp(
  `\\b(?:you|your|you're)\\b|^${PREFIX}(?:keep|be|make|go) (?:it |them |things |replies |answers |responses )?` +
    // "that was too long, shorter next time": an answer's length asked for ("stay longer next time" is a visit's).
    '|\\b(?:shorter|briefer|more concise|less wordy|less verbose) next time\\b',
)
// Standing instructions, not one-off requests: "don't…", "stop…", "keep…", "no emoji".
const DIRECTIVE_START = new RegExp(
  `^${PREFIX}(?:don't|do not|never|always|stop|keep|avoid|try to|make sure|less|more|fewer|shorter|longer|simpler|skip|cut|be|go easy|drop|quit|` +
    'feel free|only|use (?:british|american|uk|us|australian|canadian|metric|imperial|plain|simple)|no (?:need|more|emojis?|bullets?|apolog\\w*|jargon|disclaimers?|caveats?|preambles?|small talk|tables?|markdown|lists?|long))\\b',
)
const DIRECTIVE =
  /\b(?:from now on|going forward|in (?:the )?future|next time|every time|each time|(?:is|are|'s|'re|was|were) (?:\w+ )?(?:fine|great|perfect|ok|okay|better|best|helpful|enough|plenty|annoying|unnecessary|too \w+)|too (?:long|short|wordy|verbose|formal|casual|much|many)|i'd (?:rather|prefer|like it if) you|i (?:prefer|like|want|need|love|hate|dislike|appreciate) (?:it )?(?:when )?(?:you|your|short|shorter|brief|concise|answers|replies|responses|bullets)|you (?:don't|do not|shouldn't|should|keep|always|never|can stop|tend to)|stop \w+ing)\b/
// A question that is really an instruction: "can you stop adding emoji from now on?".
const REQUEST_QUESTION =
  /^(?:can|could|would|will) you (?:please )?(?:stop|keep|always|never|not|try|be|use|avoid|make)\b/

function isAboutBehaviour(lower: string): boolean {
  return BEHAVIOUR_NOUN.test(lower) || (STYLE_WORD.test(lower) && STYLE_AIM.test(lower))
}

/** Feedback about the assistant; `isQuestion` lets only instruction-like questions through. */
export function findFeedback(view: SentenceView, isQuestion: boolean): Draft | null {
  const lower = view.lower
  const isDirective = DIRECTIVE_START.test(lower) || DIRECTIVE.test(lower)
  const isFeedback = isQuestion
    ? REQUEST_QUESTION.test(lower) && isAboutBehaviour(lower)
    : // Precision first: praise or advice aimed at "you" ("you never give up") is not about the answers.
      isDirective && isAboutBehaviour(lower)
  if (!isFeedback) return null
  return {
    kind: 'feedback',
    file: 'feedback.md',
    section: 'How to answer',
    key: `feedback.${slugOf(lower)}`,
    value: lower,
    isSingle: false,
    headline: null,
  }
}
