// Short descriptions shared by the index, recent-context and day pages: fact labels, conversation counts,
// (the days/ pages of older versions are no longer written).
import { escapeInline } from './memory-file.js'
import { truncateWords } from './text.js'
import type { Fact, WindowMessage } from './types.js'

/** A fact in a few words: its headline ("City: Porto"), else its statement cut short. */
export function factLabel(fact: Fact, maxChars = 70): string {
  const label =
    fact.kind === 'plan' && fact.headline ? `${fact.headline} ${fact.text}` : (fact.headline ?? fact.text)
  return escapeInline(truncateWords(label, maxChars))
}

/** Facts of a list with one per key (the first), so a repeated statement counts once. */
export function distinctFacts(facts: readonly Fact[]): Fact[] {
  const seen = new Set<string>()
  return facts.filter((fact) => !seen.has(fact.key) && seen.add(fact.key))
}

export interface ConversationCount {
  name: string
  messages: number
}

/** Session trees of a day by size (largest first, then name), named after their root chat. */
export function conversationsOf(messages: readonly WindowMessage[]): ConversationCount[] {
  const trees = new Map<string, { name: string; messages: number; isNamedByRoot: boolean }>()
  for (const message of messages) {
    const tree = trees.get(message.root) ?? { name: message.chatName, messages: 0, isNamedByRoot: false }
    tree.messages += 1
    if (message.chat === message.root && !tree.isNamedByRoot) {
      tree.name = message.chatName
      tree.isNamedByRoot = true
    }
    trees.set(message.root, tree)
  }
  return [...trees.values()]
    .map(({ name, messages: count }) => ({ name: escapeInline(name), messages: count }))
    .sort((a, b) => b.messages - a.messages || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
