// A day in a few words for MEMORY.md's pointers: the names and words that set it apart from the rest of the
// window ("Door Dash, banker, dance studio"), rather than the first sentence someone happened to say.
import { isNeverAName } from './entities.js'
import { contentWords, proseOf } from './text.js'
import type { WindowMessage } from './types.js'
import { stemOf, type WordWeights } from './word-weights.js'

// Words chats use on any day to react and chat along ("great", "sounds", "excited", "always"). Over a window of
// many days they weigh little anyway; over a night's window nothing tells them from the day's subject.
const CHATTER = new Set(
  (
    'great awesome amazing wonderful fantastic incredible brilliant lovely super cool nice glad happy proud excited ' +
    'exciting sounds sound right always never everyone everybody someone something anything everything sometimes ' +
    'going doing getting making having seeing saying thinking feeling feels means meant happened happen definitely ' +
    'totally absolutely actually literally honestly probably maybe appreciate appreciated support hope hoping wish ' +
    'wanted wanna gotta remember forget thought think know knew sure true enjoy enjoyed loved tough ' +
    'important special fun funny cute beautiful gorgeous interesting inspiring inspired motivated motivating ' +
    'people today tomorrow yesterday lately recently later again'
  ).split(' '),
)

const NAME = /(?<=[\s(])(?<![.!?]\s)\p{Lu}[\p{L}\p{M}'-]+(?:\s+\p{Lu}[\p{L}\p{M}'-]+)?/gu

// Several renderers ask for the same day's topics; the engine warms this between event-loop turns.
const cache = new WeakMap<readonly WindowMessage[], { weights: WordWeights; topics: string[] }>()
const MAX_TOPICS = 8

/** Up to `max` topics of a day, most telling first; same messages and weights, same words. */
export function dayTopics(messages: readonly WindowMessage[], weights: WordWeights, max = 4): string[] {
  const cached = cache.get(messages)
  if (cached?.weights === weights) return cached.topics.slice(0, max)
  const topics = rankTopics(messages, weights)
  cache.set(messages, { weights, topics })
  return topics.slice(0, max)
}

/**
 * Works out and caches a day's topics, letting the event loop run between messages: a busy day takes tens of
 * milliseconds. dayTopics then answers from the cache.
 */
export async function warmDayTopics(
  messages: readonly WindowMessage[],
  weights: WordWeights,
  pause: () => Promise<void>,
): Promise<void> {
  if (cache.get(messages)?.weights === weights) return
  cache.set(messages, { weights, topics: await rankTopicsAsync(messages, weights, pause) })
}

function rankTopics(messages: readonly WindowMessage[], weights: WordWeights): string[] {
  const scores = new Map<string, Score>()
  const people = participants(messages)
  for (const message of messages) scoreMessage(message, weights, scores, people)
  return pickTopics(scores)
}

/**
 * The first names of those talking, in lower case. They greet each other all day ("Hey Nate!"), so in a window of
 * a night or two their names look as telling as any; they never say what the day was about.
 */
export function participants(messages: readonly WindowMessage[]): Set<string> {
  return new Set(messages.map((message) => message.sender.trim().split(/\s+/)[0]?.toLowerCase() ?? ''))
}

async function rankTopicsAsync(
  messages: readonly WindowMessage[],
  weights: WordWeights,
  pause: () => Promise<void>,
): Promise<string[]> {
  const scores = new Map<string, Score>()
  const people = participants(messages)
  for (const message of messages) {
    scoreMessage(message, weights, scores, people)
    await pause()
  }
  return pickTopics(scores)
}

interface Score {
  surface: string
  weight: number
  count: number
  score: number
}

function scoreMessage(
  message: WindowMessage,
  weights: WordWeights,
  scores: Map<string, Score>,
  people: ReadonlySet<string>,
): void {
  // A word's weight grows slowly with repetition: the day's distinctive words beat the everyday names.
  const bump = (key: string, surface: string, weight: number): void => {
    const entry = scores.get(key) ?? { surface, weight, count: 0, score: 0 }
    entry.count += 1
    entry.score = entry.weight * (1 + Math.log(entry.count))
    scores.set(key, entry)
  }
  // A pasted log or table is not what the day was about, however often its words repeat.
  const said = proseOf(message.content)
  for (const match of said.matchAll(NAME)) {
    const name = match[0].replace(/['’]s$/, '')
    const first = name.split(/\s+/)[0] ?? ''
    if (name.length < 3 || isNeverAName(first) || /^I['’]/.test(first) || people.has(first.toLowerCase()))
      continue
    bump(`name:${name.toLowerCase()}`, name, 1.5 * weights.weight(stemOf(first.toLowerCase())))
  }
  for (const word of new Set(contentWords(said))) {
    if (word.length < 5 || /^\d|'/.test(word) || people.has(word) || CHATTER.has(word)) continue
    bump(stemOf(word), word, weights.weight(stemOf(word)))
  }
}

function pickTopics(scores: ReadonlyMap<string, Score>): string[] {
  const ranked = [...scores.values()]
    .filter((entry) => entry.count >= 2)
    .sort((a, b) => b.score - a.score || (a.surface < b.surface ? -1 : 1))
  const picked: string[] = []
  for (const entry of ranked) {
    const lower = entry.surface.toLowerCase()
    if (picked.some((topic) => topic.toLowerCase().includes(lower) || lower.includes(topic.toLowerCase())))
      continue
    picked.push(entry.surface)
    if (picked.length === MAX_TOPICS) break
  }
  return picked
}
