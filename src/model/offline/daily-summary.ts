// The extractive summary of one day's messages: a bullet per session tree, then its most telling user lines
// verbatim (names, numbers and dates kept), with resolved dates where a fact was found.
import { localTimeOf } from '../../time/local-day.js'
import { escapeInline } from './memory-file.js'
import { splitSentences, stripTruncationNote, truncateWords } from './text.js'
import type { Fact, WindowMessage } from './types.js'

export interface DaySummaryInput {
  /** The messages to summarise (one day, or the part after the watermark), any order. */
  messages: readonly WindowMessage[]
  /** Facts by message id, so a fact's message is preferred and shown with absolute dates. */
  facts: ReadonlyMap<string, readonly Fact[]>
  timeZone: string
  /** Trees shown in full; the rest are named on one line. @default 8 */
  maxTrees?: number
  /** Quoted lines per tree. @default 4 */
  maxLinesPerTree?: number
}

interface Tree {
  root: string
  name: string
  chats: Set<string>
  messages: WindowMessage[]
}

const LINE_MAX_CHARS = 220

function groupTrees(messages: readonly WindowMessage[]): Tree[] {
  const trees = new Map<string, Tree>()
  for (const message of messages) {
    const tree = trees.get(message.root) ?? { root: message.root, name: '', chats: new Set(), messages: [] }
    tree.chats.add(message.chat)
    tree.messages.push(message)
    trees.set(message.root, tree)
  }
  for (const tree of trees.values()) {
    tree.messages.sort(
      (a, b) => Date.parse(a.ts) - Date.parse(b.ts) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    const rootMessage = tree.messages.find((message) => message.chat === tree.root)
    tree.name = (rootMessage ?? tree.messages[0])?.chatName || tree.root
  }
  return [...trees.values()].sort(
    (a, b) =>
      Date.parse(a.messages[0]?.ts ?? '') - Date.parse(b.messages[0]?.ts ?? '') || (a.root < b.root ? -1 : 1),
  )
}

// How much a line tells a later reader: facts first, then names and numbers; one-word replies least.
function scoreOf(message: WindowMessage, facts: ReadonlyMap<string, readonly Fact[]>): number {
  const text = message.content
  const names = (text.slice(1).match(/(?<=[\s(])(?!I\b)\p{Lu}[\p{L}'-]+/gu) ?? []).length
  const numbers = (text.match(/\d+/g) ?? []).length
  let score = (facts.get(message.id)?.length ?? 0) * 10 + Math.min(names, 3) * 2 + Math.min(numbers, 3) * 2
  if (text.trim().length < 15) score -= 5
  // Statements about the user's own life say more than the questions they asked.
  const isQuestion =
    /\?\s*$/.test(text) ||
    /^(?:what|who|where|when|why|how|which|is|are|can|could|should|do|does)\b/i.test(text.trim())
  if (isQuestion) score -= 4
  if (/\b(?:i|i'm|we|we're|my|our)\b/i.test(text)) score += 1
  return score
}

// The first sentences of a message up to the line budget; a fact's own (date-resolved) text wins.
function quoteOf(message: WindowMessage, facts: ReadonlyMap<string, readonly Fact[]>): string {
  const factText = facts.get(message.id)?.[0]?.text
  if (factText) return truncateWords(factText, LINE_MAX_CHARS)
  let quote = ''
  for (const sentence of splitSentences(stripTruncationNote(message.content))) {
    const next = quote === '' ? sentence : `${quote} ${sentence}`
    if (next.length > LINE_MAX_CHARS) break
    quote = next
  }
  return quote === '' ? truncateWords(message.content, LINE_MAX_CHARS) : quote
}

function pickLines(tree: Tree, facts: ReadonlyMap<string, readonly Fact[]>, max: number): WindowMessage[] {
  // The same words said twice (a regenerated branch, a repeated question) are quoted once.
  const seen = new Set<string>()
  const users = tree.messages.filter((message) => {
    const words = message.content.trim().toLowerCase()
    if (message.role !== 'user' || words === '' || seen.has(words)) return false
    seen.add(words)
    return true
  })
  const pool = users.length > 0 ? users : tree.messages.slice(0, 1)
  const ranked = pool
    .map((message, order) => ({ message, order, score: scoreOf(message, facts) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
  return ranked
    .slice(0, max)
    .sort((a, b) => a.order - b.order)
    .map((entry) => entry.message)
}

function headerOf(tree: Tree, timeZone: string): string {
  const first = tree.messages[0] as WindowMessage
  const last = tree.messages.at(-1) as WindowMessage
  const users = tree.messages.filter((message) => message.role === 'user').length
  const from = localTimeOf(new Date(first.ts), timeZone)
  const to = localTimeOf(new Date(last.ts), timeZone)
  const span = from === to ? from : `${from}–${to}`
  const chats = tree.chats.size > 1 ? `, ${tree.chats.size} chats` : ''
  const count = tree.messages.length === 1 ? '1 message' : `${tree.messages.length} messages`
  return `- **${escapeInline(tree.name)}** — ${count} (${users} from the user${chats}), ${span}`
}

/** Markdown for a `## Summary` section; '' when there are no messages. Same input, same bytes. */
export function buildDaySummary(input: DaySummaryInput): string {
  const trees = groupTrees(input.messages)
  const maxTrees = input.maxTrees ?? 8
  const maxLines = input.maxLinesPerTree ?? 4
  const lines: string[] = []
  for (const tree of trees.slice(0, maxTrees)) {
    lines.push(headerOf(tree, input.timeZone))
    for (const message of pickLines(tree, input.facts, maxLines)) {
      const who = message.sender.trim() === '' ? '' : `${escapeInline(message.sender)}: `
      lines.push(`  - ${who}${escapeInline(quoteOf(message, input.facts))}`)
    }
  }
  const rest = trees.slice(maxTrees)
  if (rest.length > 0) {
    const names = rest.map((tree) => `${escapeInline(tree.name)} (${tree.messages.length})`).join(', ')
    lines.push(`- Also: ${names}`)
  }
  return lines.join('\n')
}

/** The `count` most telling user lines of `messages` ("sender: quote"), in the order they were said. */
export function highlightsOf(
  messages: readonly WindowMessage[],
  facts: ReadonlyMap<string, readonly Fact[]>,
  count: number,
): string[] {
  const all: Tree = { root: '', name: '', chats: new Set(), messages: [...messages] }
  all.messages.sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return pickLines(all, facts, count).map((message) => {
    const who = message.sender.trim() === '' ? '' : `${escapeInline(message.sender)}: `
    return `${who}${escapeInline(truncateWords(quoteOf(message, facts), 160))}`
  })
}
