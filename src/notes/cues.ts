// The DREAM_CUES block: bounded transcript hints for one day's slice, built from a stream of messages.
import type { ResolvedConfig } from '../config/schema.js'
import type { MessageRow } from '../db/messages.js'
import { TermCounter } from './cue-terms.js'
import { MessageTally } from './tally.js'

export type CueSettings = ResolvedConfig['seeding']

const SENDER_MAX_CHARS = 40
const CHAT_MAX_CHARS = 80

/**
 * Makes text safe inside an HTML comment: no `-` is ever followed by another `-` (U+2010 stands in),
 * so neither `--` nor `-->` can appear and message content can never close the comment.
 */
export function escapeForComment(text: string): string {
  return text.replace(/-(?=-)/g, '\u2010')
}

/** Only this much of a text is ever looked at, so a megabyte message costs no more than a short one. */
function scanLimit(maxChars: number): number {
  return maxChars * 4 + 16
}

const SURROGATE = /[\uD800-\uDFFF]/

/** One line of text at most `maxChars` code points: whitespace and control characters collapsed, `…` when cut. */
export function clipText(text: string, maxChars: number): string {
  const prefix = text.slice(0, scanLimit(maxChars))
  const flat = prefix.replace(/[\s\p{Cc}]+/gu, ' ').trim()
  // Without surrogates every UTF-16 unit is a code point: cut the string itself, not an array of its characters.
  if (!SURROGATE.test(flat)) {
    if (flat.length <= maxChars && prefix.length === text.length) return flat
    return `${flat.slice(0, Math.max(0, maxChars - 1)).trimEnd()}…`
  }
  const chars = Array.from(flat)
  if (chars.length <= maxChars && prefix.length === text.length) return flat
  return `${chars
    .slice(0, Math.max(0, maxChars - 1))
    .join('')
    .trimEnd()}…`
}

/** Distinct senders counted per slice; past it the rest count as "others", so a huge group costs no more. */
const SENDERS_COUNTED_MAX = 200
/** Senders named on the `messages:` line, most messages first. */
const SENDERS_NAMED_MAX = 6

/** Who sent it, by name: what pages call `sender`. */
function senderOf(message: MessageRow): string {
  return clipText(message.senderName || message.sender || 'unknown', SENDER_MAX_CHARS)
}

/**
 * `- <ts> <sender≤40>[ (from_me)| (bot)] [<chat≤80>]: <content≤max>`: the sender by name and the data's marks, as
 * pages give them; never a role word, so a person in an imported two-person chat is not called the assistant.
 */
export function formatSnippet(message: MessageRow, iso: string, maxChars: number): string {
  const mark = message.isBotMessage ? ' (bot)' : message.isFromMe ? ' (from_me)' : ''
  const chat = clipText(message.chatName || message.chatJid, CHAT_MAX_CHARS)
  return escapeForComment(
    `- ${iso} ${senderOf(message)}${mark} [${chat}]: ${clipText(message.content, maxChars)}`,
  )
}

/** True when a snippet of `content` would be cut short. */
function isClipped(content: string, maxChars: number): boolean {
  return clipText(content, maxChars) !== clipText(content, Number.MAX_SAFE_INTEGER)
}

/** A message kept for a snippet line; formatted only if it is shown. */
interface Snippet {
  /** Position of the message within its tree. */
  index: number
  message: MessageRow
  iso: string
}

function formatAll(snippets: readonly Snippet[], maxChars: number): string[] {
  return snippets.map((snippet) => formatSnippet(snippet.message, snippet.iso, maxChars))
}

interface TreePick {
  head: Snippet[]
  tail: Snippet[]
  /** Messages of the tree not shown between head and tail. */
  omitted: number
}

/** One session tree's share of the slice: its first messages and a ring of its last ones. */
class TreeCues {
  readonly rootJid: string
  name: string | null = null
  count = 0
  first = ''
  last = ''
  readonly head: Snippet[] = []
  readonly tail: Snippet[] = []
  #isNamedByRoot = false

  constructor(rootJid: string) {
    this.rootJid = rootJid
  }

  add(message: MessageRow, iso: string, headCap: number, tailCap: number): void {
    // The root chat's own name titles the tree; a branch's name only until the root chat is seen.
    if (!this.#isNamedByRoot && (message.chatJid === this.rootJid || this.name === null)) {
      this.name = message.chatName
      this.#isNamedByRoot = message.chatJid === this.rootJid
    }
    if (this.count === 0) this.first = iso
    this.last = iso
    const snippet = { index: this.count++, message, iso }
    if (this.head.length < headCap) this.head.push(snippet)
    this.tail.push(snippet)
    if (this.tail.length > tailCap) this.tail.shift()
  }

  /** The lines shown for this tree: all when it is small, else `edge` messages from each end. */
  pick(edge: number, smallMax: number): TreePick {
    if (this.count <= smallMax) return { head: this.head, tail: [], omitted: 0 }
    const head = this.head.slice(0, edge)
    const tail = this.tail.slice(-edge).filter((snippet) => snippet.index >= head.length)
    return { head, tail, omitted: this.count - head.length - tail.length }
  }
}

/** Streams one day's slice in (oldest first) and renders the inside of its DREAM_CUES comment. */
export class CueCollector {
  readonly tally = new MessageTally()
  readonly #settings: CueSettings
  readonly #trees = new Map<string, TreeCues>()
  readonly #terms = new TermCounter()
  /** Every message while the slice still fits the whole-slice bounds; null once it does not. */
  #whole: Snippet[] | null = []
  readonly #senders = new Map<string, number>()
  #otherSenders = 0

  constructor(settings: CueSettings) {
    this.#settings = settings
  }

  add(message: MessageRow, iso: string): void {
    const s = this.#settings
    this.tally.add(message, iso)
    this.#terms.add(message.content)
    this.#countSender(senderOf(message))
    // Kept messages hold only the prefix a snippet can show (one char more, so clipText still sees the cut).
    const limit = scanLimit(s.snippetMaxChars) + 1
    const kept =
      message.content.length > limit ? { ...message, content: message.content.slice(0, limit) } : message
    let tree = this.#trees.get(message.rootJid)
    if (!tree) this.#trees.set(message.rootJid, (tree = new TreeCues(message.rootJid)))
    const edge = Math.max(s.headTail, s.fallbackHeadTail)
    tree.add(kept, iso, Math.max(s.smallTreeMaxMessages, edge), edge)
    if (this.#whole === null) return
    if (this.tally.total > s.wholeSliceMaxMessages || this.#trees.size > s.wholeSliceMaxTrees)
      this.#whole = null
    else this.#whole.push({ index: this.tally.total - 1, message: kept, iso })
  }

  #countSender(sender: string): void {
    const count = this.#senders.get(sender)
    if (count !== undefined) this.#senders.set(sender, count + 1)
    else if (this.#senders.size < SENDERS_COUNTED_MAX) this.#senders.set(sender, 1)
    else this.#otherSenders++
  }

  /** `by Ana 12, Rui 9, +3 more (5)`: who wrote the slice, by name. */
  #sendersText(): string {
    const ranked = [...this.#senders].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    const named = ranked.slice(0, SENDERS_NAMED_MAX).map(([name, count]) => `${name} ${count}`)
    const rest = ranked.slice(SENDERS_NAMED_MAX)
    const restCount = rest.reduce((sum, [, count]) => sum + count, 0) + this.#otherSenders
    if (restCount > 0) named.push(`others ${restCount}`)
    return named.length === 0 ? '' : ` by ${named.join(', ')}`
  }

  /** The comment's inner lines; never contains `--`. */
  render(): string {
    const s = this.#settings
    const t = this.tally
    const terms = this.#terms.top(s.cueTermsMax)
    const shown = this.#whole !== null ? this.#whole : null
    const body = shown !== null ? null : this.#renderPerTree()
    const isAllShown = shown !== null || body?.isAllShown === true
    const snippets = shown !== null ? formatAll(shown, s.snippetMaxChars) : (body?.snippets ?? [])
    const lines = [
      t.first === null ? 'slice: (empty)' : `slice: ${t.first} .. ${t.last}`,
      `messages: ${t.total}${this.#sendersText()} · session_trees: ${t.trees.size} · session_chats: ${t.chats.size}`,
      `bounded_full_slice: ${isAllShown ? 'yes' : 'no'}`,
      `cue_terms: ${terms.length > 0 ? terms.join(', ') : '(none)'}`,
      ...(body?.index ?? []),
      `message_snippets: ${this.#shownText(isAllShown, shown ?? body?.picked ?? [])}`,
      ...snippets,
    ]
    return escapeForComment(lines.join('\n'))
  }

  /** `all 12 shown (2 cut at 300 characters)` or `40 of 310 shown`: whether the snippets are the whole slice. */
  #shownText(isAllShown: boolean, shown: readonly Snippet[]): string {
    const maxChars = this.#settings.snippetMaxChars
    const cut = shown.filter((snippet) => isClipped(snippet.message.content, maxChars)).length
    const cutText = cut > 0 ? ` (${cut} cut at ${maxChars} characters)` : ''
    const total = this.tally.total
    return isAllShown ? `all ${total} shown${cutText}` : `${shown.length} of ${total} shown${cutText}`
  }

  #renderPerTree(): { index: string[]; snippets: string[]; picked: Snippet[]; isAllShown: boolean } {
    const s = this.#settings
    const trees = [...this.#trees.values()]
    const index = trees.map((tree) => {
      const name = clipText(tree.name || tree.rootJid, CHAT_MAX_CHARS)
      return `- ${clipText(tree.rootJid, CHAT_MAX_CHARS)} [${name}]: ${tree.count} messages, ${tree.first} .. ${tree.last}`
    })
    let picks = trees.map((tree) => tree.pick(s.headTail, s.smallTreeMaxMessages))
    const planned = picks.reduce((sum, pick) => sum + pick.head.length + pick.tail.length, 0)
    const isBreached = planned > s.snippetBudget
    if (isBreached) picks = trees.map((tree) => tree.pick(s.fallbackHeadTail, s.smallTreeMaxMessages))
    // Even 2 + 2 per tree can exceed the budget on a day of many trees: later trees then show no lines.
    const snippets: string[] = []
    const shownSnippets: Snippet[] = []
    let used = 0
    let dropped = 0
    let omittedAll = 0
    for (const pick of picks) {
      const picked = [...pick.head, ...pick.tail]
      const kept = picked.slice(0, Math.max(0, s.snippetBudget - used))
      shownSnippets.push(...kept)
      const shown = formatAll(kept, s.snippetMaxChars)
      used += shown.length
      dropped += picked.length - shown.length
      const omitted = pick.omitted + picked.length - shown.length
      omittedAll += omitted
      const headShown = Math.min(pick.head.length, shown.length)
      snippets.push(...shown.slice(0, headShown))
      if (omitted > 0 && shown.length > 0) snippets.push(`  … ${omitted} more messages in this tree …`)
      snippets.push(...shown.slice(headShown))
    }
    const budget = `snippet_budget: ${used}/${s.snippetBudget}, breached ${isBreached ? 'yes' : 'no'}`
    return {
      index: ['session_tree_index:', ...index, dropped > 0 ? `${budget}, omitted ${dropped}` : budget],
      snippets,
      picked: shownSnippets,
      isAllShown: omittedAll === 0,
    }
  }
}
