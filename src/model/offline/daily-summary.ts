// The summary of one day's messages: the sentences that say the most new things per byte, from every
// participant, condensed (no small talk, no filler), dates resolved, grouped into short event lines.
// Selection is budgeted maximum coverage: a sentence earns its place by the weight of the words it adds that
// the day's lines do not hold yet, divided by its length — so the line that matters is kept, and the fifth
// way of saying "that's awesome" is not.
import { Heap } from '../../collections/heap.js'
import { localTimeOf } from '../../time/local-day.js'
import { capitalized, condenseSentence, withoutOpener } from './condense.js'
import { annotateSpans } from './date-spans.js'
import { annotateDates, findDateMentions } from './dates.js'
import { escapeInline } from './memory-file.js'
import { splitSentences, stripTruncationNote, truncateWords } from './text.js'
import type { WindowMessage } from './types.js'
import { termsOf, WordWeights } from './word-weights.js'
import { yieldToLoop } from './yield.js'

export interface DaySummaryInput {
  /** The messages to summarise (one day, or the part after the watermark), any order. */
  messages: readonly WindowMessage[]
  timeZone: string
  /** Word weights over the window; built from `messages` alone when absent. */
  weights?: WordWeights
  /** Summary bytes per byte of message text. @default DEFAULT_RATIO (0.185) */
  ratio?: number
  /** The budget of a day however few its messages. @default MIN_BUDGET_BYTES (400) */
  minBytes?: number
}

/** One condensed sentence that may go into the summary. */
interface Candidate {
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

interface Tree {
  root: string
  name: string
  chats: Set<string>
  messages: WindowMessage[]
}

/**
 * Summary bytes per byte of messages. With the fixed parts of a note and the memory files, one dream's notes
 * come to about a quarter of the transcript (measured on LoCoMo, see README "Memory quality").
 */
export const DEFAULT_RATIO = 0.185
/**
 * The least a day with messages gets: three or four condensed statements. At 160 bytes a six-message day kept one
 * line, and lost the user's own news (a dentist's appointment, a sister's visit) to the assistant's reply.
 */
const MIN_BUDGET_BYTES = 400
/** Sentence cost grows a little slower than its length: a long, rich sentence is not punished for it. */
const COST_EXPONENT = 0.8

const MAX_SENTENCE_CHARS = 280
const LINE_TARGET_CHARS = 500
/** Candidates per day the selection looks at: the longest days are cut to the most promising. */
const MAX_CANDIDATES = 4000

const byTime = (
  a: { at: number; message: WindowMessage },
  b: { at: number; message: WindowMessage },
): number => a.at - b.at || (a.message.id < b.message.id ? -1 : a.message.id > b.message.id ? 1 : 0)

const NUMBER =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|once|twice|dozen)\b/i
// "I joined a church", "we adopted a puppy": a report of something that happened — what people ask about later.
const EVENT =
  /^(?:(?:yesterday|today|last \w+|this \w+|recently|finally|just)[, ]+)?(?:i|we|my \w+|our \w+)(?:'ve| have| had| just| finally| recently| also| actually)*\s+(?:\w+ed|went|got|made|took|gave|found|met|saw|won|lost|bought|began|started|joined|moved|came|ran|wrote|read|built|left|sold|spent|tried|did)\b/i
// "It's been so satisfying", "That was awesome": a verdict that keeps nothing a reader could look up.
const VERDICT =
  /^(?:it|that|this|which)(?:'s| is| was| has been|'s been| feels| felt| sounds| looks| seems)\b/i
const ADDRESSED = /^(?:you|your|you're|you've|you'll|keep|don't|believe|remember)\b/i
const PROPER_NAME = /(?<=\s)(?!I\b)\p{Lu}[\p{L}'-]+/gu
const QUESTION = /\?\s*$/
// Clauses joined by a semicolon, a dash or ", but": each can stand alone as a note.
const CLAUSE_BREAK = /\s*;\s+|\s+[-–—]\s+|,\s+(?=(?:but|so|and then|which)\s)/

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

/** Sentences of a message, condensed and date-resolved, with what makes each worth keeping. */
function candidatesOf(
  message: WindowMessage,
  tree: string,
  timeZone: string,
  start: number,
  answersQuestion: boolean,
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
    const mentions = findDateMentions(uncased, message.ts, timeZone)
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
    if (EVENT.test(told) || EVENT.test(told.replace(LEAD_IN, ''))) factor *= EVENT_BOOST
    if (answersQuestion) factor *= ANSWER_BOOST
    if (bonus === 0 && (VERDICT.test(text) || ADDRESSED.test(text))) factor *= VERDICT_FACTOR
    const raw = sentence.trim()
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

function gainOf(candidate: Candidate, covered: ReadonlySet<string>, weights: WordWeights): number {
  let gain = 0
  for (const term of candidate.terms) if (!covered.has(term)) gain += weights.weight(term)
  for (const day of candidate.days) gain += weights.weight(day)
  if (gain === 0) return 0
  return (gain + candidate.bonus) * candidate.factor
}

/** What a candidate adds per unit of cost, given the words already covered. */
function ratioOf(candidate: Candidate, covered: ReadonlySet<string>, weights: WordWeights): number {
  return gainOf(candidate, covered, weights) / candidate.bytes ** COST_EXPONENT
}

interface Scored {
  candidate: Candidate
  ratio: number
}

// Higher ratio first; the earlier sentence wins a tie, so the same day always gives the same lines.
const isBetter = (a: Scored, b: Scored): boolean =>
  a.ratio > b.ratio || (a.ratio === b.ratio && a.candidate.order < b.candidate.order)

/**
 * Lazy greedy budgeted coverage: gains only shrink as words get covered, so a candidate whose stale gain
 * still tops the list after re-scoring is the true best.
 */
async function select(
  candidates: readonly Candidate[],
  weights: WordWeights,
  budget: number,
): Promise<Candidate[]> {
  const covered = new Set<string>()
  const scored: Scored[] = []
  for (const candidate of candidates) {
    const ratio = ratioOf(candidate, covered, weights)
    if (ratio > 0) scored.push({ candidate, ratio })
    await yieldToLoop()
  }
  const ranked = scored
    .sort((a, b) => b.ratio - a.ratio || a.candidate.order - b.candidate.order)
    .slice(0, MAX_CANDIDATES)
  const queue = new Heap(isBetter, ranked)
  const chosen: Candidate[] = []
  let spent = 0
  for (let top = queue.pop(); top !== undefined; top = queue.pop()) {
    await yieldToLoop()
    const fresh = ratioOf(top.candidate, covered, weights)
    const next = queue.peek()
    if (next && fresh < next.ratio) {
      top.ratio = fresh
      queue.push(top)
      continue
    }
    if (fresh <= 0) break
    if (spent + top.candidate.bytes > budget) continue
    chosen.push(top.candidate)
    spent += top.candidate.bytes
    for (const term of top.candidate.terms) covered.add(term)
  }
  return chosen.sort((a, b) => a.order - b.order)
}

/**
 * A conversation the budget left out entirely still gets its most telling sentence: a busy chat must not make a
 * quieter one on the same day read as if nothing was said there.
 */
function withEveryTree(
  chosen: readonly Candidate[],
  candidates: readonly Candidate[],
  weights: WordWeights,
): Candidate[] {
  const served = new Set(chosen.map((candidate) => candidate.tree))
  const best = new Map<string, { candidate: Candidate; ratio: number }>()
  for (const candidate of candidates) {
    if (served.has(candidate.tree)) continue
    const ratio = ratioOf(candidate, new Set(), weights)
    const current = best.get(candidate.tree)
    if (ratio > 0 && (!current || ratio > current.ratio)) best.set(candidate.tree, { candidate, ratio })
  }
  return [...chosen, ...[...best.values()].map((entry) => entry.candidate)].sort((a, b) => a.order - b.order)
}

// A clause cut from its sentence, or a message typed without a full stop, still ends as a sentence in the line.
// A closing bracket ends it only when what it closes did ("(beach!)"): a resolved date "(2026-11-20)" does not.
const closed = (text: string): string =>
  /[.!?…:;\]"'”’。！？」』）]$|[.!?…]["'”’]?\)$/.test(text) ? text : `${text}.`

/** Event lines: neighbouring sentences join one line, the speaker named whenever it changes. */
function linesOf(chosen: readonly Candidate[]): string[] {
  const lines: string[] = []
  let line = ''
  let speaker: string | null = null
  let lastOrder = -Infinity
  for (const candidate of chosen) {
    const isNear = candidate.order - lastOrder <= 10
    if (line !== '' && (!isNear || line.length >= LINE_TARGET_CHARS)) {
      lines.push(line)
      line = ''
      speaker = null
    }
    const who = candidate.speaker !== speaker && candidate.speaker !== '' ? `${candidate.speaker}: ` : ''
    line = `${line}${line === '' ? '' : ' '}${who}${closed(candidate.text)}`
    speaker = candidate.speaker
    lastOrder = candidate.order
  }
  if (line !== '') lines.push(line)
  return lines.map((text) => `- ${escapeInline(text)}`)
}

function groupTrees(messages: readonly WindowMessage[]): Tree[] {
  const trees = new Map<string, Tree>()
  const timed = messages.map((message) => ({ at: Date.parse(message.ts), message }))
  for (const { message } of timed.sort(byTime)) {
    const tree = trees.get(message.root) ?? { root: message.root, name: '', chats: new Set(), messages: [] }
    tree.chats.add(message.chat)
    tree.messages.push(message)
    trees.set(message.root, tree)
  }
  for (const tree of trees.values()) {
    const rootMessage = tree.messages.find((message) => message.chat === tree.root)
    tree.name = (rootMessage ?? tree.messages[0])?.chatName || tree.root
  }
  return [...trees.values()]
}

function headerOf(tree: Tree, timeZone: string): string {
  const from = localTimeOf(new Date(tree.messages[0]!.ts), timeZone)
  const to = localTimeOf(new Date(tree.messages.at(-1)!.ts), timeZone)
  const span = from === to ? from : `${from}–${to}`
  const count = tree.messages.length === 1 ? '1 message' : `${tree.messages.length} messages`
  return `**${escapeInline(tree.name)}** — ${count}, ${span}`
}

/** Word weights over a set of messages, one document per message. */
export async function weightsOf(messages: Iterable<WindowMessage>): Promise<WordWeights> {
  const weights = new WordWeights()
  for (const message of messages) {
    weights.add(termsOf(message.content))
    await yieldToLoop()
  }
  return weights
}

/**
 * A day's summary as far as it goes without the window's word weights: its conversations and candidate sentences
 * (condensed and date-resolved, the costly part). composeDaySummary finishes it once the weights are known.
 */
export interface DayDraft {
  trees: Tree[]
  candidates: Candidate[]
  sourceBytes: number
}

export async function draftDaySummary(
  messages: readonly WindowMessage[],
  timeZone: string,
): Promise<DayDraft> {
  const trees = groupTrees(messages)
  const sourceBytes = messages.reduce((total, message) => total + Buffer.byteLength(message.content), 0)
  const candidates: Candidate[] = []
  for (const tree of trees) {
    for (const [index, message] of tree.messages.entries()) {
      await yieldToLoop()
      const previous = tree.messages[index - 1]
      const answers =
        previous !== undefined && previous.sender !== message.sender && /\?/.test(previous.content)
      candidates.push(...candidatesOf(message, tree.root, timeZone, candidates.length, answers))
    }
  }
  return { trees, candidates, sourceBytes }
}

/** Markdown for a `## Summary` section from a day's draft; '' when it has no messages. */
export async function composeDaySummary(
  draft: DayDraft,
  input: Pick<DaySummaryInput, 'timeZone' | 'ratio' | 'minBytes'> & { weights: WordWeights },
): Promise<string> {
  const { trees, candidates, sourceBytes } = draft
  if (trees.length === 0) return ''
  const { weights } = input
  const budget = Math.max(input.minBytes ?? MIN_BUDGET_BYTES, sourceBytes * (input.ratio ?? DEFAULT_RATIO))
  const chosen = withEveryTree(await select(candidates, weights, budget), candidates, weights)
  const blocks: string[] = []
  for (const tree of trees) {
    const lines = linesOf(chosen.filter((candidate) => candidate.tree === tree.root))
    if (trees.length > 1) blocks.push(headerOf(tree, input.timeZone))
    blocks.push(lines.length > 0 ? lines.join('\n') : '- (small talk only)')
  }
  return blocks.join('\n\n')
}

/** Markdown for a `## Summary` section; '' when there are no messages. Same input, same bytes. */
export async function buildDaySummary(input: DaySummaryInput): Promise<string> {
  if (input.messages.length === 0) return ''
  const weights = input.weights ?? (await weightsOf(input.messages))
  const draft = await draftDaySummary(input.messages, input.timeZone)
  return composeDaySummary(draft, { ...input, weights })
}
