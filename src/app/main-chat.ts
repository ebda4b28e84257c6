// The chat that scheduled and bootstrap dreams report to: the root of the busiest session tree, never a branch.
import type { Clock } from '../clock.js'
import type { MessagesDb } from '../db/messages.js'

/** How far back activity counts when choosing the main chat. */
const MAIN_CHAT_LOOKBACK_DAYS = 30

/**
 * The root chat of the session tree with the most messages in the last 30 days (ties: the most recent), so a
 * forked conversation that happened to be touched last (`web:madeira/fork-2`) never takes the reports. With no
 * recent activity, the root of the most recently active chat; with no chats at all, `auto`.
 */
export function mainChatJid(messages: MessagesDb, clock: Clock): string {
  const now = clock.now()
  const since = new Date(now.getTime() - MAIN_CHAT_LOOKBACK_DAYS * 86_400_000)
  const trees = new Map<string, { messages: number; last: string }>()
  for (const chat of messages.summarizeWindow(since, new Date(now.getTime() + 86_400_000))) {
    const tree = trees.get(chat.root) ?? { messages: 0, last: '' }
    tree.messages += chat.messages
    if (chat.last > tree.last) tree.last = chat.last
    trees.set(chat.root, tree)
  }
  const busiest = [...trees].sort(
    ([rootA, a], [rootB, b]) =>
      b.messages - a.messages || b.last.localeCompare(a.last) || rootA.localeCompare(rootB),
  )[0]
  if (busiest) return busiest[0]
  const latest = messages.listChats()[0]
  return latest ? messages.rootOf(latest.jid) : 'auto'
}
