// Shared shapes of the offline engine: window messages as the tools return them, and extracted facts.
import type { DateMention } from './dates.js'

/** One message as get_messages returns it, with its local day added. */
export interface WindowMessage {
  id: string
  chat: string
  root: string
  chatName: string
  ts: string
  role: 'user' | 'assistant'
  sender: string
  /** Sent from the exporting account (a group chat's owner), when the messages DB says so. */
  fromMe?: boolean
  content: string
  /** Local day (YYYY-MM-DD) of `ts` in the run's time zone. */
  day: string
}

export type FactKind =
  | 'identity'
  | 'relation'
  | 'preference'
  | 'feedback'
  | 'decision'
  | 'plan'
  | 'reference'
  | 'thread'
  /** A name put right: `previous` is the old name, `value` the new; no entry of its own. */
  | 'rename'

/** The memory files that hold keyed fact entries. */
export type FactFile = 'user.md' | 'feedback.md' | 'project.md' | 'reference.md' | 'current-state.md'

/** A durable statement found in a user message, ready to be merged into a memory file. */
export interface Fact {
  kind: FactKind
  file: FactFile
  /** The `## ` section of `file` the entry goes under. */
  section: string
  /** Stable subject key, e.g. `user.city` or `plan.atlas-launch`: de-duplication and supersession go by it. */
  key: string
  /** What is compared for "same fact": the slot value ("Porto", "2026-12-11") or the statement itself. */
  value: string
  /** A slot holds one value at a time (a city, a deadline): a different newer value supersedes the old. */
  isSingle: boolean
  /** Short bold lead of the entry, e.g. "City: Porto" or "2026-12-11"; null for plain statements. */
  headline: string | null
  /** The user's sentence, verbatim except that resolved dates are added in parentheses. */
  text: string
  /** The value this statement says it replaces ("from Lisbon to Porto" → "Lisbon"), when it says so. */
  previous: string | null
  /** The statement revises its subject ("the launch moved to Dec 11") even without naming the old value. */
  isCorrection: boolean
  /** An ending of whatever the slot holds ("I got laid off": the employer, unnamed): nothing to end, nothing written. */
  endsOnly?: boolean
  /** A day put right with nothing else said ("sorry, I meant Thursday"): the plan just stated takes it. */
  amends?: boolean
  day: string
  ts: string
  messageId: string
  chat: string
}

/** One sentence as the rules see it: the original text, its case-folded twin (same indices) and its dates. */
export interface SentenceView {
  text: string
  lower: string
  mentions: DateMention[]
  /** Local day of the message. */
  day: string
  /** The message's text before this sentence: what "he", "that" and "it" may point back to. */
  context: string
}

/** What a rule finds in a sentence; classify adds the source (day, message, text). */
export type Draft = Pick<
  Fact,
  'kind' | 'file' | 'section' | 'key' | 'value' | 'isSingle' | 'headline' | 'endsOnly' | 'amends'
> & {
  previous?: string | null
  isCorrection?: boolean
  /** The statement to keep when the sentence alone would not make sense ("that's my order" + what it points at). */
  text?: string
}

/** What merging one fact did to its memory file. */
export type MergeAction = 'added' | 'superseded' | 'duplicate' | 'historical'

export interface MergeOutcome {
  fact: Fact
  action: MergeAction
  /** For 'superseded': the value that was replaced. */
  replaced?: string
}
