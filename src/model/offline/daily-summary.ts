// The summary of one day's messages: the sentences that say the most new things per byte, from every
// participant, condensed (no small talk, no filler), dates resolved, grouped into short event lines. The sentences
// come from day-candidates.ts and are chosen by day-selection.ts (so the line that matters is kept, and the fifth
// way of saying "that's awesome" is not); this file budgets the day and renders what was chosen.
import { localTimeOf } from '../../time/local-day.js'
import { candidatesOf, type Candidate } from './day-candidates.js'
import { selectCandidates, withEveryTree } from './day-selection.js'
import { escapeInline } from './memory-file.js'
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
const LINE_TARGET_CHARS = 500
/**
 * A line shorter than this takes the next sentence even from further on in the day: alone, a short sentence ("Jon:
 * Won't quit.") tells a reader little, and a search ranks it above richer lines for its shortness alone.
 */
const MIN_LINE_CHARS = LINE_TARGET_CHARS / 2

const byTime = (
  a: { at: number; message: WindowMessage },
  b: { at: number; message: WindowMessage },
): number => a.at - b.at || (a.message.id < b.message.id ? -1 : a.message.id > b.message.id ? 1 : 0)

// A clause cut from its sentence, or a message typed without a full stop, still ends as a sentence in the line.
// A closing bracket ends it only when what it closes did ("(beach!)"): a resolved date "(2026-11-20)" does not.
const closed = (text: string): string =>
  /[.!?…:;\]"'”’。！？」』）]$|[.!?…]["'”’]?\)$/.test(text) ? text : `${text}.`

/**
 * Event lines: neighbouring sentences join one line, the speaker named whenever it changes; a short line also takes
 * a later sentence, and a short last line joins the one before.
 */
function linesOf(chosen: readonly Candidate[]): string[] {
  const lines: string[] = []
  let line = ''
  let speaker: string | null = null
  let lastOrder = -Infinity
  /** Who spoke last in the line before this one. */
  let before: string | null = null
  /** Who speaks first in this line. */
  let first: string | null = null
  for (const candidate of chosen) {
    const isNear = candidate.order - lastOrder <= 10
    const isFull = line.length >= LINE_TARGET_CHARS || (!isNear && line.length >= MIN_LINE_CHARS)
    if (line !== '' && isFull) {
      lines.push(line)
      line = ''
      before = speaker
      speaker = null
    }
    if (line === '') first = candidate.speaker
    const who = candidate.speaker !== speaker && candidate.speaker !== '' ? `${candidate.speaker}: ` : ''
    line = `${line}${line === '' ? '' : ' '}${who}${closed(candidate.text)}`
    speaker = candidate.speaker
    lastOrder = candidate.order
  }
  const previous = lines.at(-1)
  const joinsPrevious =
    line !== '' &&
    previous !== undefined &&
    line.length < MIN_LINE_CHARS &&
    previous.length + line.length <= LINE_TARGET_CHARS + MIN_LINE_CHARS
  if (joinsPrevious) {
    // The speaker who ends the line before goes on without being named again.
    const goesOn = first === before && first !== '' ? line.slice(`${first}: `.length) : line
    lines[lines.length - 1] = `${previous} ${goesOn}`
  } else if (line !== '') lines.push(line)
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
      candidates.push(
        ...candidatesOf(message, tree.root, timeZone, candidates.length, answers, previous?.content),
      )
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
  const chosen = withEveryTree(await selectCandidates(candidates, weights, budget), candidates, weights)
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
