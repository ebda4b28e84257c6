// Prune & Index, recent-context.md: the window's days in brief, newest first, rewritten each run so days that
// leave the window leave the file; recurring topics across the window's days.
import { longDateTitle } from '../../time/local-day.js'
import { writeBlock } from './block.js'
import { highlightsOf } from './daily-summary.js'
import { conversationsOf, distinctFacts, factLabel } from './digest.js'
import { isNeverAName } from './entities.js'
import type { Fact, WindowMessage } from './types.js'

export const RECENT_BLOCK = 'recent-context'

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`

export interface RecentContextInput {
  /** The window's days, oldest first. */
  days: readonly string[]
  messagesByDay: ReadonlyMap<string, readonly WindowMessage[]>
  factsByDay: ReadonlyMap<string, readonly Fact[]>
  factsByMessage: ReadonlyMap<string, readonly Fact[]>
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
  const topics = new Map<string, { days: Set<string>; mentions: number }>()
  for (const [day, messages] of messagesByDay) {
    for (const message of messages) {
      if (message.role !== 'user') continue
      // Not sentence-initial: after a space or bracket that does not follow a sentence end.
      for (const match of message.content.matchAll(/(?<![.!?]\s|^)(?<=[\s(])\p{Lu}[\p{L}\p{M}-]+/gu)) {
        const term = match[0].replace(/['’]s$/, '')
        if (term.length < 3 || isNeverAName(term)) continue
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

function dayBrief(day: string, messages: readonly WindowMessage[], input: RecentContextInput): string[] {
  const weekday = longDateTitle(day).split(',')[0]
  const conversations = conversationsOf(messages)
  const named = conversations
    .slice(0, 4)
    .map((tree) => `${tree.name} (${tree.messages})`)
    .join(', ')
  const more = conversations.length > 4 ? `, +${conversations.length - 4} more` : ''
  const lines = [
    `### ${weekday} ${day}`,
    '',
    `- ${messages.length} messages in ${plural(conversations.length, 'conversation')}: ${named}${more}`,
  ]
  const facts = distinctFacts(input.factsByDay.get(day) ?? [])
  if (facts.length > 0)
    lines.push(
      `- Learned: ${facts
        .slice(0, 5)
        .map((fact) => factLabel(fact, 60))
        .join(' · ')}`,
    )
  for (const highlight of highlightsOf(messages, input.factsByMessage, 2)) lines.push(`- ${highlight}`)
  return lines
}

/** recent-context.md with its block rewritten for this window; text outside the block is kept. */
export function renderRecentContext(existing: string, input: RecentContextInput): string {
  const first = input.days[0] ?? ''
  const last = input.days.at(-1) ?? ''
  const body = [`## ${first} → ${last}`, '']
  const topics = recurringTopics(input.messagesByDay)
  if (topics.length > 0) {
    body.push(
      `Recurring topics: ${topics.map((topic) => `${topic.term} (${topic.days} days)`).join(', ')}`,
      '',
    )
  }
  const quiet: string[] = []
  for (const day of [...input.days].reverse()) {
    const messages = input.messagesByDay.get(day) ?? []
    if (messages.length === 0) {
      quiet.push(day)
      continue
    }
    body.push(...dayBrief(day, messages, input), '')
  }
  if (quiet.length > 0) body.push(`No messages on ${quiet.sort().join(', ')}.`)
  return writeBlock(existing, RECENT_BLOCK, body.join('\n'))
}
