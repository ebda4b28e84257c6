// Prune & Index, recent-context.md: the window's days in brief, newest first, rewritten each run so days that
// leave the window leave the file; recurring topics across the window's days.
import { longDateTitle } from '../../time/local-day.js'
import { writeBlock } from '../../notes/owned-block.js'
import { dayTopics, participants } from './day-topics.js'
import { conversationsOf } from './digest.js'
import { isNeverAName } from './entities.js'
import { plural } from './text.js'
import type { Fact, WindowMessage } from './types.js'
import type { WordWeights } from './word-weights.js'

export const RECENT_BLOCK = 'recent-context'

export interface RecentContextInput {
  /** The window's days, oldest first. */
  days: readonly string[]
  messagesByDay: ReadonlyMap<string, readonly WindowMessage[]>
  factsByDay: ReadonlyMap<string, readonly Fact[]>
  weights: WordWeights
  /** Every message of the window is in one conversation tree, so lines need not name it. */
  isOneConversation?: boolean
}

export interface Topic {
  term: string
  days: number
  mentions: number
}

/** Capitalised names the user brought up on at least two days of the window, most widespread first. */
export function recurringTopics(
  messagesByDay: ReadonlyMap<string, readonly WindowMessage[]>,
  max = 8,
): Topic[] {
  // Who is talking is not a topic: the user calls the one they talk to by name ("Thanks, Nate!") every day.
  const speakers = participants([...messagesByDay.values()].flat())
  const topics = new Map<string, { days: Set<string>; mentions: number }>()
  for (const [day, messages] of messagesByDay) {
    for (const message of messages) {
      if (message.role !== 'user') continue
      // Not sentence-initial: after a space or bracket that does not follow a sentence end.
      for (const match of message.content.matchAll(/(?<![.!?]\s|^)(?<=[\s(])\p{Lu}[\p{L}\p{M}-]+/gu)) {
        const term = match[0].replace(/['’]s$/, '')
        if (term.length < 3 || isNeverAName(term) || speakers.has(term.toLowerCase())) continue
        const topic = topics.get(term) ?? { days: new Set(), mentions: 0 }
        topic.days.add(day)
        topic.mentions += 1
        topics.set(term, topic)
      }
    }
  }
  return [...topics]
    .map(([term, topic]) => ({ term, days: topic.days.size, mentions: topic.mentions }))
    .filter((topic) => topic.days >= 2)
    .sort((a, b) => b.days - a.days || b.mentions - a.mentions || (a.term < b.term ? -1 : 1))
    .slice(0, max)
}

/** Days listed at most: older days of a long window are in their daily notes and the index. */
export const RECENT_DAYS = 3

function dayBrief(day: string, messages: readonly WindowMessage[], input: RecentContextInput): string {
  const weekday = longDateTitle(day).split(',')[0]?.slice(0, 3)
  const conversations = conversationsOf(messages)
  const named = input.isOneConversation
    ? ''
    : ` in ${conversations
        .slice(0, 3)
        .map((tree) => tree.name)
        .join(', ')}${conversations.length > 3 ? ` +${conversations.length - 3}` : ''}`
  const topics = dayTopics(messages, input.weights)
  const about = topics.length > 0 ? `: ${topics.join(', ')}` : ''
  return `- [[${day}]] ${weekday}, ${plural(messages.length, 'message')}${named}${about}`
}

/** recent-context.md with its block rewritten for this window; text outside the block is kept. */
export function renderRecentContext(existing: string, input: RecentContextInput): string {
  const active = input.days.filter((day) => (input.messagesByDay.get(day)?.length ?? 0) > 0)
  const shown = active.slice(-RECENT_DAYS).reverse()
  const body = [`## ${input.days[0] ?? ''} → ${input.days.at(-1) ?? ''}`, '']
  // Recurring across the days shown: a long window's old names are not what is going on now.
  const topics = recurringTopics(new Map(shown.map((day) => [day, input.messagesByDay.get(day) ?? []])))
  if (topics.length > 0) {
    body.push(`Recurring: ${topics.map((topic) => `${topic.term} (${topic.days} days)`).join(', ')}`, '')
  }
  for (const day of shown) body.push(dayBrief(day, input.messagesByDay.get(day) ?? [], input))
  if (shown.length === 0) body.push('- no messages in the window')
  const older = active.length - shown.length
  // Their daily notes, not MEMORY.md: a long first dream indexes only its last few days there.
  if (older > 0) body.push(`- and ${plural(older, 'earlier day')} with messages (notes in ../daily/)`)
  return writeBlock(existing, RECENT_BLOCK, body.join('\n'))
}
